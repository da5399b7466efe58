import type { AccessContext } from '../../app/access/access-context';

export const ACTOR_TYPES = ['user', 'service_account', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** Kinds of action-log entries (docs/findings-service/findings-api.md#action-log). */
export const FINDING_ACTIONS = [
  'created',
  'seen_again',
  'renewed',
  'status_changed',
  'assigned',
  'triage_updated',
  'tag_added',
  'tag_removed',
  'tags_changed',
  'deleted',
  'sla_approaching',
  'sla_breached',
  'sla_violation_resolved',
  'ticket_linked',
  'ticket_unlinked',
  'ticket_status_changed',
  'merged',
  'unmerged',
  'suppressed',
  'unsuppressed',
] as const;
export type FindingActionName = (typeof FINDING_ACTIONS)[number];

/** Who did it. `system` marks automatic changes (ingestion, periodic tasks, the SLA check). */
export interface Actor {
  type: ActorType;
  id: string | null;
  label: string | null;
}

/** The actor of automatic changes; `label` names the mechanism (e.g. `ingestion`). */
export function systemActor(label: string): Actor {
  return { type: 'system', id: null, label };
}

/** The actor behind an authenticated request. */
export function actorOf(access: AccessContext): Actor {
  const p = access.principal;
  return p.kind === 'user'
    ? { type: 'user', id: p.id, label: p.email }
    : { type: 'service_account', id: p.id, label: p.name };
}

/** An entry to write. `at` defaults to the transaction's `now()`. */
export interface ActionLogEntry {
  findingId: string;
  projectId: string;
  actor: Actor;
  action: FindingActionName;
  from?: Record<string, unknown> | null;
  to?: Record<string, unknown> | null;
  at?: Date;
}

/** A user named in an entry, resolved when read. */
export interface ActionPerson {
  id: string;
  email: string;
  displayName: string;
}

/** An entry as read back. `actor.name`: a user actor's display name (null otherwise). */
export interface FindingAction {
  id: string;
  findingId: string;
  actor: Actor & { name: string | null };
  action: FindingActionName;
  from: Record<string, unknown> | null;
  to: Record<string, unknown> | null;
  at: Date;
}
