/**
 * What each role of the certificate service may do in the UI (docs/certificate-service/auth.md):
 * the UI shows only what the signed-in person may do; the service still decides every call.
 *
 *   read     every role: dashboard, requests queue, devices, certificates, audit, ...
 *   approve  cert-admin, cert-approver: approve requests (bulk or one)
 *   admin    cert-admin: reject requests, revoke, settings, access, license
 */
import type { User } from './api/session';

export type Role = NonNullable<User['role']>;
export type Capability = 'read' | 'approve' | 'admin';

const CAPABILITIES: Record<Role, readonly Capability[]> = {
  'cert-admin': ['read', 'approve', 'admin'],
  'cert-approver': ['read', 'approve'],
  'cert-viewer': ['read'],
};

/** Whether any role the person holds grants `capability` (no role: nothing but signing out). */
export function can(user: Pick<User, 'roles'> | undefined, capability: Capability): boolean {
  return (user?.roles ?? []).some((role) => CAPABILITIES[role]?.includes(capability) ?? false);
}
