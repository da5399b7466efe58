import { ExecutionContext, Injectable } from '@nestjs/common';
import { AccessTokenGuard } from '@platform/auth';
import type { FastifyRequest } from 'fastify';
import { AccessContext } from '../../../app/access/access-context';
import type { AccessRule } from '../../../app/access/access.decorators';
import { MembershipGrantsService } from '../../projects/membership-grants.service';
import { ServiceAccountsService } from '../../service-accounts/service-accounts.service';
import { UsersService } from '../../users/users.service';
import { AuthError } from '../auth.errors';
import { DOWNLOAD_TOKEN_PARAM, DownloadLinks } from '../download-links/download-links';
import { userGrants, userPrincipal } from './user-grants';

type Credential =
  | { kind: 'bearer' }
  | { kind: 'api_key'; key: string }
  | { kind: 'download_link'; token: string }
  | { kind: 'none' };

/**
 * Turns request credentials into an AccessContext. `Authorization: Bearer` is always a JWT
 * (so `Bearer sa_...` fails); keys come as `X-API-Key` or `Authorization: ApiKey`. A route
 * whose rule names a download-link purpose also takes `?download_token=` when no header is
 * sent: the link is consumed and its user signed in for this one request.
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly accessTokens: AccessTokenGuard,
    private readonly users: UsersService,
    private readonly serviceAccounts: ServiceAccountsService,
    private readonly memberships: MembershipGrantsService,
    private readonly downloadLinks: DownloadLinks,
  ) {}

  async authenticate(
    context: ExecutionContext,
    rule?: AccessRule,
  ): Promise<AccessContext | undefined> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const purpose = rule?.kind === 'permission' ? rule.downloadLink : undefined;
    const credential = readCredential(request, purpose !== undefined);
    switch (credential.kind) {
      case 'none':
        return undefined;
      case 'bearer': {
        const userId = await this.accessTokens.subjectOf(context);
        const access = userId === null ? null : await this.userAccess(userId);
        if (!access) throw new AuthError('invalid_token');
        return access;
      }
      case 'download_link': {
        const userId = purpose && (await this.downloadLinks.redeem(credential.token, purpose));
        const access = userId ? await this.userAccess(userId) : null;
        if (!access) throw new AuthError('download_link_invalid');
        return access;
      }
      case 'api_key': {
        const found = await this.serviceAccounts.authenticate(credential.key);
        if (!found) throw new AuthError('invalid_api_key');
        return new AccessContext(found.principal, found.grants);
      }
    }
  }

  /** An active user's access: their global grants and project memberships. */
  private async userAccess(userId: string): Promise<AccessContext | null> {
    const user = await this.users.findActive(userId);
    if (!user) return null;
    const memberGrants = user.isAdmin ? [] : await this.memberships.grantsOf(user.id);
    return new AccessContext(userPrincipal(user), [...userGrants(user), ...memberGrants]);
  }
}

function readCredential(request: FastifyRequest, downloadLinks: boolean): Credential {
  const authorization = request.headers.authorization?.trim();
  if (authorization) {
    const [scheme = '', value = ''] = authorization.split(/\s+/, 2);
    if (scheme.toLowerCase() === 'bearer') return { kind: 'bearer' };
    if (scheme.toLowerCase() === 'apikey' && value) return { kind: 'api_key', key: value };
    throw new AuthError('authentication_required');
  }
  const header = request.headers['x-api-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key) return { kind: 'api_key', key: key.trim() };
  const token = downloadLinks ? downloadTokenOf(request) : undefined;
  return token ? { kind: 'download_link', token } : { kind: 'none' };
}

function downloadTokenOf(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[DOWNLOAD_TOKEN_PARAM];
  const token = Array.isArray(value) ? value[0] : value;
  return typeof token === 'string' && token !== '' ? token : undefined;
}
