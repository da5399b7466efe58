import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { isServiceAccountToken } from '../service-accounts/service-account-token';
import { ServiceAccountsService } from '../service-accounts/service-accounts.service';
import { UsersRepository } from '../users/users.repository';
import { AccessTokenService } from './access-token.service';
import type { Actor } from '../../app/access/actor';
import { AuthError } from './auth.errors';
import { primaryRole } from '../../app/access/roles';
import { loggableError } from '@platform/logging';

/**
 * Turns `Authorization: Bearer ...` into an actor. `wca_*` tokens are recognised before any
 * JWT check. Every failure, including a database error, is 401.
 */
@Injectable()
export class BearerAuthenticator {
  constructor(
    private readonly serviceAccounts: ServiceAccountsService,
    private readonly users: UsersRepository,
    private readonly accessTokens: AccessTokenService,
    private readonly logger: PinoLogger,
  ) {}

  async authenticate(authorization: string | undefined): Promise<Actor> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new AuthError('unauthorized');
    const token = match[1];
    try {
      const actor = isServiceAccountToken(token)
        ? await this.serviceAccounts.authenticate(token)
        : await this.human(token);
      if (actor) return actor;
    } catch (error) {
      this.logger.error({ error: loggableError(error).message }, 'authentication lookup failed');
    }
    throw new AuthError('unauthorized');
  }

  private async human(token: string): Promise<Actor | null> {
    const email = await this.accessTokens.verify(token);
    if (email === null) return null;
    const user = await this.users.findByEmail(email);
    if (!user || !user.enabled) return null;
    return { kind: 'user', email: user.email, role: primaryRole(user.roles), roles: user.roles };
  }
}
