/** The four roles of the certificate service, exactly as in the specification. */
export const ROLES = ['cert-admin', 'cert-approver', 'cert-viewer', 'cert-auto-approver'] as const;
export type CertRole = (typeof ROLES)[number];

/** Roles a person can hold; `cert-auto-approver` belongs to service accounts only. */
export const HUMAN_ROLES = ['cert-admin', 'cert-approver', 'cert-viewer'] as const;
export type HumanRole = (typeof HUMAN_ROLES)[number];

export const SERVICE_ACCOUNT_ROLE = 'cert-auto-approver' satisfies CertRole;

/** Every role allowed to read the admin views (requests, devices, audit, networks...). */
export const READER_ROLES: readonly HumanRole[] = HUMAN_ROLES;

export function isHumanRole(value: string): value is HumanRole {
  return (HUMAN_ROLES as readonly string[]).includes(value);
}

/** The strongest role a person holds (shown as `role`), or null without any. */
export function primaryRole(roles: readonly HumanRole[]): HumanRole | null {
  return HUMAN_ROLES.find((role) => roles.includes(role)) ?? null;
}

/** Stable order for presenting a role set. */
export function sortRoles(roles: readonly HumanRole[]): HumanRole[] {
  return HUMAN_ROLES.filter((role) => roles.includes(role));
}
