import type { Purpose } from '../domain/purposes';
import type { CertRole, HumanRole } from './roles';

/** A signed-in person (local login or, later, the identity provider). */
export interface HumanActor {
  readonly kind: 'user';
  readonly email: string;
  /** Strongest role held, or null for a user without roles (may only use /auth/*). */
  readonly role: HumanRole | null;
  readonly roles: readonly HumanRole[];
}

/** A caller authenticated by a `wca_*` token. */
export interface ServiceAccountActor {
  readonly kind: 'service_account';
  readonly id: string;
  readonly name: string;
  readonly role: 'cert-auto-approver';
  readonly roles: readonly ['cert-auto-approver'];
  readonly allowedPurposes: readonly Purpose[];
}

export type Actor = HumanActor | ServiceAccountActor;

/** Label of actions by service accounts in the audit log, as the specification requires. */
export const SERVICE_ACCOUNT_AUDIT_LABEL = 'API';

/** Who an action is attributed to: the person's email, or `API` for a service account. */
export function actorLabel(actor: Actor): string {
  return actor.kind === 'user' ? actor.email : SERVICE_ACCOUNT_AUDIT_LABEL;
}

export function hasAnyRole(actor: Actor, roles: readonly CertRole[]): boolean {
  return actor.roles.some((role) => roles.includes(role));
}

/** Whether a service account may act on this purpose (always true for people). */
export function mayActOnPurpose(actor: Actor, purpose: Purpose): boolean {
  return actor.kind === 'user' || actor.allowedPurposes.includes(purpose);
}
