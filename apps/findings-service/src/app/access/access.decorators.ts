import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccessContext, PrincipalKind } from './access-context';
import { PermissionName } from './permissions';

export const ACCESS_METADATA = 'findings:access';
export const RATE_LIMIT_METADATA = 'findings:rate-limit';
export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'api_key';

/** How a route is reached. Every route must declare one; undeclared routes are refused. */
export type AccessRule =
  | { kind: 'public'; optionalUser: boolean }
  | { kind: 'user' }
  | { kind: 'admin' }
  | { kind: 'permission'; permission: PermissionName; principals: PrincipalKind[] };

/** Rate-limit bucket of a route: the API floor (default), the login floor, or none. */
export type RateLimitBucket = 'api' | 'auth' | 'none';

/** No credentials needed. `optionalUser`: a bearer token, when sent, is verified and used. */
export function Public(options: { optionalUser?: boolean } = {}): MethodDecorator & ClassDecorator {
  const rule: AccessRule = { kind: 'public', optionalUser: options.optionalUser ?? false };
  return SetMetadata(ACCESS_METADATA, rule);
}

/** Any signed-in, active user (access token); service-account keys are refused. */
export function UserOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'user' } satisfies AccessRule),
    ApiBearerAuth(BEARER_SCHEME),
  );
}

/** Administrators only (a user with is_admin). */
export function AdminOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, { kind: 'admin' } satisfies AccessRule),
    ApiBearerAuth(BEARER_SCHEME),
  );
}

/**
 * Callers holding `permission` at some scope; by default users and service accounts.
 * The service then checks the concrete project/product with `AccessContext.can`.
 */
export function Access(options: {
  permission: PermissionName;
  principals?: PrincipalKind[];
}): MethodDecorator & ClassDecorator {
  const principals = options.principals ?? ['user', 'service_account'];
  const rule: AccessRule = { kind: 'permission', permission: options.permission, principals };
  const security = [
    ...(principals.includes('user') ? [ApiBearerAuth(BEARER_SCHEME)] : []),
    ...(principals.includes('service_account') ? [ApiSecurity(API_KEY_SCHEME)] : []),
  ];
  return applyDecorators(SetMetadata(ACCESS_METADATA, rule), ...security);
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
