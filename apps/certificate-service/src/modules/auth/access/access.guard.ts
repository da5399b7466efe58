import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { CERTSVC_ACCESS } from '../../../app/access/access.decorators';
import { hasAnyRole, type Actor } from '../../../app/access/actor';
import { requestContextOf } from '../../../app/request-context/request-context.hooks';
import { AuthError } from '../auth.errors';
import { Authenticator } from './authenticator';

/**
 * Global guard: every route must declare its access policy; a route without one is refused
 * (fail closed). Authenticated callers are stored in the request context.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('AccessGuard');
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = CERTSVC_ACCESS.ruleOf(this.reflector, context);
    if (!policy) {
      this.logger.error(
        { handler: `${context.getClass().name}.${context.getHandler().name}` },
        'route without access declaration refused',
      );
      throw new AuthError('route_not_declared');
    }
    switch (policy.kind) {
      case 'public':
      case 'agent':
        return true;
      case 'signed-in': {
        const actor = await this.authenticate(context);
        if (actor.kind !== 'user') throw new AuthError('forbidden');
        return true;
      }
      case 'roles': {
        const actor = await this.authenticate(context);
        if (!hasAnyRole(actor, policy.roles)) throw new AuthError('forbidden');
        return true;
      }
    }
  }

  private async authenticate(context: ExecutionContext): Promise<Actor> {
    const actor = await this.authenticator.authenticate(context);
    const state = requestContextOf(context.switchToHttp().getRequest<FastifyRequest>());
    if (state) state.actor = actor;
    return actor;
  }
}
