import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomSecret, sha256Hex, verifyAgainstDummy, verifyPassword } from '@platform/auth';
import { randomUUID } from 'node:crypto';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { UserDto } from '../users/dto/user.dto';
import { AccessContext } from '../../app/access/access-context';
import { AuthConfigDto, AuthProviderDto } from './dto/auth-config.dto';
import { MeDto } from './dto/me.dto';
import { AccessTokenService } from './access-token.service';
import { AuthError } from './auth.errors';
import { RefreshTokensRepository } from '../users/refresh-tokens.repository';

/** What a successful login or refresh hands back to the controller. */
export interface Session {
  user: UserEntity;
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshMaxAgeSeconds: number;
}

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly users: UsersService,
    private readonly accessTokens: AccessTokenService,
    private readonly refreshTokens: RefreshTokensRepository,
  ) {}

  async loginLocal(login: string, password: string): Promise<Session> {
    if (!this.config.localAuth.enabled) throw new AuthError('local_auth_disabled');
    const found = await this.users.findByEmail(login);
    if (!found?.passwordHash || !found.isActive) {
      await verifyAgainstDummy(password);
      throw new AuthError('invalid_credentials');
    }
    if (!(await verifyPassword(password, found.passwordHash))) {
      throw new AuthError('invalid_credentials');
    }
    const user = await this.users.applyBootstrapAdmin(found);
    this.logger.log(`user ${user.id} signed in (local)`);
    return this.openSession(user, randomUUID());
  }

  /**
   * Rotates a refresh token: the presented one is revoked and a new one of the same family
   * issued. Presenting an already rotated token revokes the whole family (theft signal).
   */
  async refresh(presented: string | undefined): Promise<Session> {
    if (!presented) throw new AuthError('refresh_token_invalid');
    const stored = await this.refreshTokens.findByHash(sha256Hex(presented));
    if (!stored) throw new AuthError('refresh_token_invalid');
    const now = new Date();
    if (stored.revokedAt || !(await this.refreshTokens.revokeIfActive(stored.id, now))) {
      await this.refreshTokens.revokeFamily(stored.familyId, now);
      this.logger.warn(
        `refresh token reuse for user ${stored.userId}: family ${stored.familyId} revoked`,
      );
      throw new AuthError('refresh_token_reused');
    }
    if (stored.expiresAt.getTime() <= now.getTime()) throw new AuthError('refresh_token_invalid');
    const user = await this.users.findActive(stored.userId);
    if (!user) throw new AuthError('refresh_token_invalid');
    return this.openSession(user, stored.familyId);
  }

  /** Revokes every refresh token of the user named by the access token or the cookie. */
  async logout(userId: string | undefined, presented: string | undefined): Promise<void> {
    const owner =
      userId ??
      (presented ? (await this.refreshTokens.findByHash(sha256Hex(presented)))?.userId : undefined);
    if (!owner) return;
    await this.refreshTokens.revokeAllForUser(owner, new Date());
    this.logger.log(`user ${owner} signed out; refresh tokens revoked`);
  }

  /** Sign-in options for the UI; SSO providers will be listed here with their button URLs. */
  authConfig(): AuthConfigDto {
    const local = this.config.localAuth.enabled;
    const providers: AuthProviderDto[] = [];
    const mode = local
      ? providers.length > 0
        ? 'mixed'
        : 'local'
      : providers.length > 0
        ? 'sso'
        : 'none';
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

  private async openSession(user: UserEntity, familyId: string): Promise<Session> {
    const refreshToken = randomSecret(32);
    const refreshMaxAgeSeconds = this.config.refreshTokenTtlDays * 86400;
    await this.refreshTokens.insert({
      userId: user.id,
      familyId,
      tokenHash: sha256Hex(refreshToken),
      expiresAt: new Date(Date.now() + refreshMaxAgeSeconds * 1000),
    });
    return {
      user,
      accessToken: await this.accessTokens.sign(user.id),
      expiresIn: this.accessTokens.ttlSeconds,
      refreshToken,
      refreshMaxAgeSeconds,
    };
  }
}
