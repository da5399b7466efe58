/** Callers every role matrix tries on each of its routes. */
export type Caller = 'anonymous' | 'no-role' | 'viewer' | 'approver' | 'admin' | 'service-account';

export const CALLERS: Caller[] = [
  'anonymous',
  'no-role',
  'viewer',
  'approver',
  'admin',
  'service-account',
];
/** Any signed-in person, with or without a role. */
export const PEOPLE: Caller[] = ['no-role', 'viewer', 'approver', 'admin'];
/** The three person roles (spec "Roles": viewer and approver read what cert-admin reads). */
export const READERS: Caller[] = ['viewer', 'approver', 'admin'];
export const ADMIN: Caller[] = ['admin'];
/** Who may approve: cert-approver, cert-admin and a service account (cert-auto-approver). */
export const APPROVERS: Caller[] = ['approver', 'admin', 'service-account'];
export const ALL_ROLES: Caller[] = ['viewer', 'approver', 'admin', 'service-account'];

export type MatrixMethod = 'get' | 'post' | 'put' | 'delete';

/** What the route-coverage check reads from a row of any matrix. */
export interface MatrixRoute {
  method: MatrixMethod;
  /** The route template as Nest declares it (`/api/v1/devices/:serial/purposes`). */
  template: string;
}

/** `GET /api/v1/...`: the form `declaredRoutes` uses. */
export function routeKey(row: MatrixRoute): string {
  return `${row.method.toUpperCase()} ${row.template}`;
}
