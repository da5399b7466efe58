import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  AccessTokens,
  type IssuedRefreshToken,
  type OidcIdentity,
  PasswordLogin,
  RefreshTokenRotation,
} from '@platform/auth';
import { AccessContext } from '../../app/access/access-context';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { UserDto } from '../users/dto/user.dto';
import { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { AuthError } from './auth.errors';
import { AuthConfigDto } from './dto/auth-config.dto';
import { MeDto } from './dto/me.dto';

/** What a successful sign-in or refresh hands back to the controller. */
export interface Session {
  user: UserEntity;
  accessToken: string;
  expiresIn: number;
  refresh: IssuedRefreshToken;
}

/** Sign-in (local password or single sign-on), sessions and the caller's own view. */
@Injectable()
export class AuthService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Auth');
  private readonly passwords = new PasswordLogin();

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly users: UsersService,
    private readonly accessTokens: AccessTokens,
    private readonly refreshTokens: RefreshTokenRotation,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.jwt.generated) {
      this.logger.warn(
        'JWT_SECRET is not set: using a random per-process secret (tokens do not survive a restart and are not shared between replicas)',
      );
    }
  }

  async loginLocal(login: string, password: string): Promise<Session> {
    if (!this.config.localAuth.enabled) throw new AuthError('local_auth_disabled');
    const found = await this.passwords.check(
      await this.users.findByEmail(login),
      (u) => ({ passwordHash: u.passwordHash, active: u.isActive }),
      password,
    );
    if (!found) throw new AuthError('invalid_credentials');
    const user = await this.users.applyBootstrapAdmin(found);
    this.logger.log(`user ${user.id} signed in (local)`);
    return this.openSession(user, await this.refreshTokens.issue(user.id));
  }

  /** Signs in the user an identity provider vouched for (created at the first sign-in). */
  async loginWithIdentity(identity: OidcIdentity, provider: string): Promise<Session> {
    const found = await this.users.findOrCreateFromIdentity(identity.email, identity.displayName);
    if (!found.isActive) throw new AuthError('invalid_credentials');
    const user = await this.users.applyBootstrapAdmin(found);
    this.logger.log(`user ${user.id} signed in (sso ${provider})`);
    return this.openSession(user, await this.refreshTokens.issue(user.id));
  }

  /** Rotates the refresh token (reuse revokes the whole family: a theft signal). */
  async refresh(presented: string | undefined): Promise<Session> {
    const active: { user?: UserEntity | null } = {};
    const outcome = await this.refreshTokens.rotate(presented, async (userId) => {
      active.user = await this.users.findActive(userId);
      return active.user !== null;
    });
    switch (outcome.kind) {
      case 'invalid':
        throw new AuthError('refresh_token_invalid');
      case 'reused':
        this.logger.warn(
          `refresh token reuse for user ${outcome.subject}: family ${outcome.familyId} revoked`,
        );
        throw new AuthError('refresh_token_reused');
      case 'rotated':
        if (!active.user) throw new AuthError('refresh_token_invalid');
        return this.openSession(active.user, outcome.issued);
    }
  }

  /** Revokes every refresh token of the user named by the access token or the cookie. */
  async logout(userId: string | undefined, presented: string | undefined): Promise<void> {
    const owner = userId ?? (await this.refreshTokens.subjectOf(presented));
    if (!owner) return;
    await this.refreshTokens.endAllSessions(owner);
    this.logger.log(`user ${owner} signed out; refresh tokens revoked`);
  }

  /** Sign-in options for the UI: local login and the configured providers' buttons. */
  authConfig(): AuthConfigDto {
    const local = this.config.localAuth.enabled;
    const providers = this.config.sso.providers.map((p) => ({
      id: p.id,
      name: p.displayName,
      type: 'oidc' as const,
      login_url: `/api/v1/auth/sso/${p.id}/login`,
    }));
    const sso = providers.length > 0;
    const mode = local ? (sso ? 'mixed' : 'local') : sso ? 'sso' : 'none';
    return { login_mode: mode, local_enabled: local, providers };
  }

  /** The signed-in user with roles and effective permissions. */
  async me(access: AccessContext): Promise<MeDto> {
    const user = await this.users.findActive(access.principal.id);
    if (!user) throw new AuthError('invalid_token');
    return {
      user: UserDto.from(user),
      roles: access.roles,
      permissions: access.grants.map((g) => ({
        permission: g.permission,
        level: g.level,
        project_id: g.projectId,
        product_id: g.productId,
        expires_at: g.expiresAt?.toISOString() ?? null,
      })),
    };
  }

  private async openSession(user: UserEntity, refresh: IssuedRefreshToken): Promise<Session> {
    return {
      user,
      accessToken: await this.accessTokens.sign(user.id),
      expiresIn: this.accessTokens.ttlSeconds,
      refresh,
    };
  }
}
