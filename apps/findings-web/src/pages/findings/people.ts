import type { Schemas } from '../../api/client';

/** Who did something: the person's name and e-mail, a key's name, or `automatic` for the system. */
export function actorText(actor: Schemas['ActionActorDto'], automatic: string): string {
  if (actor.type === 'system') return automatic;
  if (actor.name && actor.label && actor.name !== actor.label)
    return `${actor.name} (${actor.label})`;
  return actor.name ?? actor.label ?? actor.id ?? '—';
}
