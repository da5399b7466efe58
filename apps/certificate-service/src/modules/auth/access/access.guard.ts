import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { requestContextOf } from '../../../app/request-context/request-context.hooks';
import { PinoLogger } from 'nestjs-pino';
import { hasAnyRole, type Actor } from '../../../app/access/actor';
import { AuthError } from '../auth.errors';
import { BearerAuthenticator } from '../bearer-authenticator';
import { ACCESS_POLICY, type AccessPolicy } from '../../../app/access/access.decorators';

/**
 * Global guard: every route must declare its access policy; a route without one is refused
 * (fail closed). Authenticated callers are stored in the request context.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: BearerAuthenticator,
    private readonly logger: PinoLogger,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<FastifyRequest>();
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
        const actor = await this.authenticate(request);
        if (actor.kind !== 'user') throw new AuthError('forbidden');
        return true;
      }
      case 'roles': {
        const actor = await this.authenticate(request);
        if (!hasAnyRole(actor, policy.roles)) throw new AuthError('forbidden');
        return true;
      }
    }
  }

  private async authenticate(request: FastifyRequest): Promise<Actor> {
    const actor = await this.authenticator.authenticate(request.headers.authorization);
    const state = requestContextOf(request);
    if (state) state.actor = actor;
    return actor;
  }
}
