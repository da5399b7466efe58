import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RateLimitService } from '../../rate-limit/rate-limit.service';
import { AuthError } from '../auth.errors';
import { AccessContext } from '../../../app/access/access-context';
import {
  ACCESS_CONTEXT,
  AccessRule,
  FINDINGS_ACCESS,
  RATE_LIMIT_METADATA,
  RateLimitBucket,
  RequestWithAccess,
} from '../../../app/access/access.decorators';
import { Authenticator } from './authenticator';

/**
 * The one global guard, in order: per-address rate limit, access declaration (routes
 * without one are refused), authentication, per-identity rate limit, authorization.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('AccessGuard');

  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly rateLimits: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const rule = FINDINGS_ACCESS.ruleOf(this.reflector, context);
    const bucket =
      this.reflector.getAllAndOverride<RateLimitBucket | undefined>(RATE_LIMIT_METADATA, targets) ??
      'api';
    const request = context.switchToHttp().getRequest<RequestWithAccess>();
    if (bucket !== 'none') {
      const address = this.rateLimits.clientAddress(
        request.raw.socket.remoteAddress ?? '',
        request.headers['x-forwarded-for'],
      );
      await this.rateLimits.checkAddress(address, bucket);
    }
    if (!rule) {
      this.logger.error(
        `route ${request.method} ${request.routeOptions.url ?? request.url} declares no access rule: refused`,
      );
      throw new AuthError('access_undeclared');
    }
    if (rule.kind === 'public' && !rule.optionalUser) return true;

    const access = await this.authenticator.authenticate(context, rule);
    if (!access) {
      if (rule.kind === 'public') return true;
      throw new AuthError('authentication_required');
    }
    request[ACCESS_CONTEXT] = access;
    await this.rateLimits.checkIdentity(access.principal);
    authorize(rule, access);
    return true;
  }
}

function authorize(rule: AccessRule, access: AccessContext): void {
  switch (rule.kind) {
    case 'public':
      return;
    case 'user':
      if (!access.isUser) throw new AuthError('access_denied');
      return;
    case 'admin':
      if (!access.isAdmin) throw new AuthError('access_denied');
      return;
    case 'permission':
      if (!rule.principals.includes(access.principal.kind)) throw new AuthError('access_denied');
      if (!access.holds(rule.permission)) throw new AuthError('permission_denied');
      return;
    case 'any_permission':
      if (!rule.principals.includes(access.principal.kind)) throw new AuthError('access_denied');
      if (access.grants.length === 0) throw new AuthError('permission_denied');
      return;
  }
}
