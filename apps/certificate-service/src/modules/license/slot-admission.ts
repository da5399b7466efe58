export interface SlotRequest {
  readonly identityKey: string;
}

export interface SlotAdmission {
  /** Identity keys that need a new slot and got one (in order of first appearance). */
  readonly newlyCounted: string[];
  /** Identity keys refused for lack of slots. */
  readonly refused: Set<string>;
}

/**
 * Which identities may be issued to: those already holding a slot always (renewal is never
 * blocked), new ones while slots remain (`max - used`). An identity appearing several times
 * takes one slot.
 */
export function admitSlots(
  requests: readonly SlotRequest[],
  held: ReadonlySet<string>,
  used: number,
  max: number,
): SlotAdmission {
  const newlyCounted: string[] = [];
  const refused = new Set<string>();
  const seen = new Set<string>();
  let free = Math.max(0, max - used);
  for (const { identityKey } of requests) {
    if (held.has(identityKey) || seen.has(identityKey)) continue;
    seen.add(identityKey);
    if (free > 0) {
      newlyCounted.push(identityKey);
      free -= 1;
    } else {
      refused.add(identityKey);
    }
  }
  return { newlyCounted, refused };
}
