import { AccessTarget, grantCovers, PermissionGrant, PermissionName } from './permissions';

export interface UserPrincipal {
  kind: 'user';
  id: string;
  email: string;
  isAdmin: boolean;
}

export interface ServiceAccountPrincipal {
  kind: 'service_account';
  id: string;
  name: string;
}

export type Principal = UserPrincipal | ServiceAccountPrincipal;
export type PrincipalKind = Principal['kind'];

/**
 * Who is calling and what they may do. The global AccessGuard builds it once per request;
 * services receive it (`@CurrentAccess()`) and check scoped permissions with `can`/`assert`.
 */
export class AccessContext {
  constructor(
    readonly principal: Principal,
    readonly grants: readonly PermissionGrant[],
  ) {}

  get isUser(): boolean {
    return this.principal.kind === 'user';
  }

  get isServiceAccount(): boolean {
    return this.principal.kind === 'service_account';
  }

  get isAdmin(): boolean {
    return this.principal.kind === 'user' && this.principal.isAdmin;
  }

  /** Roles for display (`/auth/me`). */
  get roles(): string[] {
    if (this.principal.kind === 'service_account') return ['service_account'];
    return this.principal.isAdmin ? ['user', 'admin'] : ['user'];
  }

  /** Holds `permission` at any scope (route-level check; the scope is checked by the service). */
  holds(permission: PermissionName): boolean {
    return this.grants.some((g) => g.permission === permission);
  }

  /** Holds `permission` over the target (global, the target's project, or the product). */
  can(permission: PermissionName, target: AccessTarget = {}): boolean {
    return this.grants.some((g) => g.permission === permission && grantCovers(g, target));
  }

  /** Project ids on which the caller holds `permission`, or 'all' for a global grant. */
  projectsWith(permission: PermissionName): 'all' | string[] {
    const own = this.grants.filter((g) => g.permission === permission);
    if (own.some((g) => g.level === 'global')) return 'all';
    return [...new Set(own.flatMap((g) => (g.projectId ? [g.projectId] : [])))];
  }
}
