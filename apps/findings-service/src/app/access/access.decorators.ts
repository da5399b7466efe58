import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import { AccessDeclarations } from '@platform/auth';
import type { FastifyRequest } from 'fastify';
import { AccessContext, PrincipalKind } from './access-context';
import { PermissionName } from './permissions';

export const ACCESS_METADATA = 'findings:access';
export const RATE_LIMIT_METADATA = 'findings:rate-limit';
export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'api_key';

/**
 * What a single-use download link may fetch (modules/auth/download-links): a route that
 * declares the same purpose also accepts its `download_token` query parameter.
 */
export type DownloadPurpose = 'findings-export';

/** How a route is reached. Every route must declare one; undeclared routes are refused. */
export type AccessRule =
  | { kind: 'public'; optionalUser: boolean }
  | { kind: 'user' }
  | { kind: 'admin' }
  | {
      kind: 'permission';
      permission: PermissionName;
      principals: PrincipalKind[];
      downloadLink?: DownloadPurpose;
    }
  | { kind: 'any_permission'; principals: PrincipalKind[] };

/** The findings service's access rules, declared with the shared decorator shape. */
export const FINDINGS_ACCESS = new AccessDeclarations<AccessRule>(ACCESS_METADATA);

/** Rate-limit bucket of a route: the API floor (default), the login floor, or none. */
export type RateLimitBucket = 'api' | 'auth' | 'none';

/** No credentials needed. `optionalUser`: a bearer token, when sent, is verified and used. */
export function Public(options: { optionalUser?: boolean } = {}): MethodDecorator & ClassDecorator {
  return FINDINGS_ACCESS.declare({ kind: 'public', optionalUser: options.optionalUser ?? false });
}

/** Any signed-in, active user (access token); service-account keys are refused. */
export function UserOnly(): MethodDecorator & ClassDecorator {
  return FINDINGS_ACCESS.declare({ kind: 'user' }, ApiBearerAuth(BEARER_SCHEME));
}

/** Administrators only (a user with is_admin). */
export function AdminOnly(): MethodDecorator & ClassDecorator {
  return FINDINGS_ACCESS.declare({ kind: 'admin' }, ApiBearerAuth(BEARER_SCHEME));
}

/**
 * Callers holding `permission` at some scope; by default users and service accounts.
 * The service then checks the concrete project/product with `AccessContext.can`.
 * `downloadLink`: a user may also come with a single-use link of that purpose
 * (`?download_token=`) instead of a header, for a browser's native download.
 */
export function Access(options: {
  permission: PermissionName;
  principals?: PrincipalKind[];
  downloadLink?: DownloadPurpose;
}): MethodDecorator & ClassDecorator {
  const principals = options.principals ?? ['user', 'service_account'];
  const security = [
    ...(principals.includes('user') ? [ApiBearerAuth(BEARER_SCHEME)] : []),
    ...(principals.includes('service_account') ? [ApiSecurity(API_KEY_SCHEME)] : []),
  ];
  const rule: Extract<AccessRule, { kind: 'permission' }> = {
    kind: 'permission',
    permission: options.permission,
    principals,
  };
  if (options.downloadLink) rule.downloadLink = options.downloadLink;
  return FINDINGS_ACCESS.declare(rule, ...security);
}

/**
 * "Any permission on the project" (spec, scan perimeter): callers holding some permission at
 * some scope (a project role, a global administrator, a key with a grant); by default users
 * and service accounts. The service then checks that a grant covers the concrete project
 * (`VisibilityService.canSee`) and answers 404 when none does.
 */
export function AnyPermission(
  options: { principals?: PrincipalKind[] } = {},
): MethodDecorator & ClassDecorator {
  const principals = options.principals ?? ['user', 'service_account'];
  const security = [
    ...(principals.includes('user') ? [ApiBearerAuth(BEARER_SCHEME)] : []),
    ...(principals.includes('service_account') ? [ApiSecurity(API_KEY_SCHEME)] : []),
  ];
  return FINDINGS_ACCESS.declare({ kind: 'any_permission', principals }, ...security);
}

/** Counts the route against RATE_LIMIT_AUTH (login) or exempts it (health, version). */
export function RateLimit(bucket: RateLimitBucket): MethodDecorator & ClassDecorator {
  return SetMetadata(RATE_LIMIT_METADATA, bucket);
}

/** Request property where the guard stores the AccessContext. */
export const ACCESS_CONTEXT = Symbol('accessContext');
export type RequestWithAccess = FastifyRequest & { [ACCESS_CONTEXT]?: AccessContext };

/** The caller's AccessContext (undefined on public routes without credentials). */
export const CurrentAccess = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AccessContext | undefined =>
    ctx.switchToHttp().getRequest<RequestWithAccess>()[ACCESS_CONTEXT],
);
