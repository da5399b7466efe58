import { ExecutionContext, Injectable } from '@nestjs/common';
import { AccessTokenGuard } from '@platform/auth';
import type { FastifyRequest } from 'fastify';
import { AccessContext } from '../../../app/access/access-context';
import { MembershipGrantsService } from '../../projects/membership-grants.service';
import { ServiceAccountsService } from '../../service-accounts/service-accounts.service';
import { UsersService } from '../../users/users.service';
import { AuthError } from '../auth.errors';
import { userGrants, userPrincipal } from './user-grants';

type Credential = { kind: 'bearer' } | { kind: 'api_key'; key: string } | { kind: 'none' };

/**
 * Turns request credentials into an AccessContext. `Authorization: Bearer` is always a JWT
 * (so `Bearer sa_...` fails); keys come as `X-API-Key` or `Authorization: ApiKey`.
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly accessTokens: AccessTokenGuard,
    private readonly users: UsersService,
    private readonly serviceAccounts: ServiceAccountsService,
    private readonly memberships: MembershipGrantsService,
  ) {}

  async authenticate(context: ExecutionContext): Promise<AccessContext | undefined> {
    const credential = readCredential(context.switchToHttp().getRequest<FastifyRequest>());
    switch (credential.kind) {
      case 'none':
        return undefined;
      case 'bearer': {
        const userId = await this.accessTokens.subjectOf(context);
        const user = userId === null ? null : await this.users.findActive(userId);
        if (!user) throw new AuthError('invalid_token');
        const memberGrants = user.isAdmin ? [] : await this.memberships.grantsOf(user.id);
        return new AccessContext(userPrincipal(user), [...userGrants(user), ...memberGrants]);
      }
      case 'api_key': {
        const found = await this.serviceAccounts.authenticate(credential.key);
        if (!found) throw new AuthError('invalid_api_key');
        return new AccessContext(found.principal, found.grants);
      }
    }
  }
}

function readCredential(request: FastifyRequest): Credential {
  const authorization = request.headers.authorization?.trim();
  if (authorization) {
    const [scheme = '', value = ''] = authorization.split(/\s+/, 2);
    if (scheme.toLowerCase() === 'bearer') return { kind: 'bearer' };
    if (scheme.toLowerCase() === 'apikey' && value) return { kind: 'api_key', key: value };
    throw new AuthError('authentication_required');
  }
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  return key ? { kind: 'api_key', key: key.trim() } : { kind: 'none' };
}
