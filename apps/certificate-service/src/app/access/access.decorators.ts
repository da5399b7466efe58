import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { AccessDeclarations } from '@platform/auth';
import type { FastifyRequest } from 'fastify';
import { requestContextOf } from '../request-context/request-context.hooks';
import type { Actor, HumanActor } from './actor';
import type { CertRole } from './roles';

/**
 * How a route is reached. Every route declares exactly one; the global AccessGuard refuses
 * routes without a declaration (fail closed).
 */
export type AccessPolicy =
  | { kind: 'public' }
  | { kind: 'roles'; roles: readonly CertRole[] }
  | { kind: 'signed-in' }
  | { kind: 'agent' };

export const ACCESS_POLICY = 'certsvc:access-policy';

/** The certificate service's access policies, declared with the shared decorator shape. */
export const CERTSVC_ACCESS = new AccessDeclarations<AccessPolicy>(ACCESS_POLICY);

/** Open to anyone, no token looked at. */
export const Public = (): MethodDecorator & ClassDecorator =>
  CERTSVC_ACCESS.declare({ kind: 'public' });

/** Authenticated caller holding at least one of `roles`. */
export const Roles = (...roles: CertRole[]): MethodDecorator & ClassDecorator =>
  CERTSVC_ACCESS.declare({ kind: 'roles', roles }, ApiBearerAuth());

/** Any signed-in person, even one without a role (the /auth/* session routes). */
export const SignedIn = (): MethodDecorator & ClassDecorator =>
  CERTSVC_ACCESS.declare({ kind: 'signed-in' }, ApiBearerAuth());

/**
 * Agent routes (`X-Agent-Secret`): the global guard does not look at bearer tokens; the
 * route MUST add its own agent guard (the enrollment module provides it).
 */
export const AgentAuth = (): MethodDecorator & ClassDecorator =>
  CERTSVC_ACCESS.declare({ kind: 'agent' });

function actorFrom(context: ExecutionContext): Actor | undefined {
  return requestContextOf(context.switchToHttp().getRequest<FastifyRequest>())?.actor;
}

/** The authenticated caller (routes declared with `@Roles` or `@SignedIn`). */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const actor = actorFrom(context);
  if (!actor) throw new Error('CurrentActor used on a route without authentication');
  return actor;
});

/** The signed-in person (routes declared with `@SignedIn`). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext): HumanActor => {
    const actor = actorFrom(context);
    if (actor?.kind !== 'user') throw new Error('CurrentUser used on a route open to non-users');
    return actor;
  },
);
