/**
 * Why a result was skipped instead of stored (the report's `warnings` with `result_stored:
 * false`, counted per code). A result is skipped only when what the finding cannot exist
 * without is unreadable: its location (the identity's path, lines, host, port) or its rule (no
 * rule id can be found through any of `ruleId`, `rule`, `ruleIndex`). Storing it would invent
 * an identity.
 *
 * `result_level_invalid`, `result_kind_invalid`, `result_baseline_state_invalid`,
 * `result_message_invalid` and `result_properties_invalid` are no longer raised (such values
 * are ignored now, see IGNORED_VALUE_CODES); they stay known so that reports ingested before
 * still show their warnings.
 */
export const RESULT_WARNING_CODES = [
  'result_not_object',
  'result_level_invalid',
  'result_kind_invalid',
  'result_baseline_state_invalid',
  'result_rule_invalid',
  'result_message_invalid',
  'result_location_invalid',
  'result_region_invalid',
  'result_network_invalid',
  'result_properties_invalid',
] as const;
export type ResultWarningCode = (typeof RESULT_WARNING_CODES)[number];

/** Skipped results per code (codes with no skipped result are absent). */
export type ResultWarnings = Partial<Record<ResultWarningCode, number>>;

/**
 * Why a value of a stored result was left out or read as its equivalent (the report's
 * `warnings` with `result_stored: true`): an unknown enum value, a member of the wrong type
 * that the finding can do without, a member the format does not define. `_mapped`: the value
 * was read as an obviously equivalent one (`existing` → `unchanged`, `Warning` → `warning`);
 * `_ignored`: it was dropped. Codes and rules: docs/findings-service/sarif.md, sonarqube.md.
 */
export const IGNORED_VALUE_CODES = [
  'result_level_ignored',
  'result_level_mapped',
  'result_kind_ignored',
  'result_kind_mapped',
  'result_baseline_state_ignored',
  'result_baseline_state_mapped',
  'result_rule_ignored',
  'result_message_ignored',
  'result_message_mapped',
  'result_severity_ignored',
  'result_properties_ignored',
  'result_fingerprints_ignored',
  'result_location_detail_ignored',
  'result_member_ignored',
  'result_member_unknown',
] as const;
export type IgnoredValueCode = (typeof IGNORED_VALUE_CODES)[number];

/** Stored results with an ignored value, per code (each result counts once per code). */
export type IgnoredValues = Partial<Record<IgnoredValueCode, number>>;

const BIT = new Map<IgnoredValueCode, number>(IGNORED_VALUE_CODES.map((code, i) => [code, 1 << i]));

/**
 * The ignored values of the result being read, one bit per code: the checks note them, and the
 * reader counts them only if the result is stored (no allocation per result).
 */
export class IgnoredMask {
  bits = 0;

  note(code: IgnoredValueCode): void {
    this.bits |= BIT.get(code) ?? 0;
  }

  has(code: IgnoredValueCode): boolean {
    return (this.bits & (BIT.get(code) ?? 0)) !== 0;
  }
}

/** Adds one result's ignored-value bits (IgnoredMask.bits) into `into`. */
export function addIgnoredBits(into: IgnoredValues, bits: number): void {
  for (let i = 0; bits !== 0; i += 1, bits >>>= 1) {
    if ((bits & 1) !== 0) {
      const code = IGNORED_VALUE_CODES[i];
      into[code] = (into[code] ?? 0) + 1;
    }
  }
}

export function isResultWarningCode(value: string): value is ResultWarningCode {
  return (RESULT_WARNING_CODES as readonly string[]).includes(value);
}

export function isIgnoredValueCode(value: string): value is IgnoredValueCode {
  return (IGNORED_VALUE_CODES as readonly string[]).includes(value);
}

/** Adds `add`'s counts into `into` (skipped results or ignored values). */
export function addWarnings<C extends string>(
  into: Partial<Record<C, number>>,
  add: Partial<Record<C, number>>,
): void {
  for (const code of Object.keys(add) as C[]) {
    into[code] = (into[code] ?? 0) + (add[code] ?? 0);
  }
}
