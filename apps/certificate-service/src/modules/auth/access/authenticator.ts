import { ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { AccessTokenGuard } from '@platform/auth';
import { loggableError } from '@platform/logging';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../../app/access/actor';
import { primaryRole } from '../../../app/access/roles';
import { isServiceAccountToken } from '../../service-accounts/service-account-token';
import { ServiceAccountsService } from '../../service-accounts/service-accounts.service';
import { UsersRepository } from '../../users/users.repository';
import { AuthError } from '../auth.errors';

/**
 * Turns `Authorization: Bearer ...` into an actor. `wca_*` service-account tokens are
 * recognised before any JWT check; anything else is an access token (`sub` is the email).
 * Every failure, including a database error, is 401.
 */
@Injectable()
export class Authenticator {
  private readonly logger = new Logger('Authenticator');
  constructor(
    private readonly serviceAccounts: ServiceAccountsService,
    private readonly users: UsersRepository,
    private readonly accessTokens: AccessTokenGuard,
  ) {}

  async authenticate(context: ExecutionContext): Promise<Actor> {
    const authorization = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new AuthError('unauthorized');
    const token = match[1];
    try {
      const actor = isServiceAccountToken(token)
        ? await this.serviceAccounts.authenticate(token)
        : await this.person(context);
      if (actor) return actor;
    } catch (error) {
      this.logger.error({ error: loggableError(error).message }, 'authentication lookup failed');
    }
    throw new AuthError('unauthorized');
  }

  private async person(context: ExecutionContext): Promise<Actor | null> {
    const email = await this.accessTokens.subjectOf(context);
    if (email === null) return null;
    const user = await this.users.findByEmail(email);
    if (!user || !user.enabled) return null;
    return { kind: 'user', email: user.email, role: primaryRole(user.roles), roles: user.roles };
  }
}
