import { Inject, Injectable } from '@nestjs/common';
import {
  hashPassword,
  MemoryRateLimiter,
  randomSecret,
  sha256Hex,
  TrustedProxies,
  verifyAgainstDummy,
  verifyPassword,
} from '@platform/auth';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuditService } from '../audit/audit.service';
import { UsersRepository } from '../users/users.repository';
import { AccessTokenService } from './access-token.service';
import type { HumanActor } from '../../app/access/actor';
import { AuthError } from './auth.errors';
import { RefreshTokensRepository } from '../users/refresh-tokens.repository';
import { primaryRole } from '../../app/access/roles';

export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresAt: Date;
  user: Pick<HumanActor, 'email' | 'role' | 'roles'>;
}

export interface ClientPeer {
  peer: string;
  forwardedFor: string | string[] | undefined;
}

/** Sign-in, sessions and the own password. Local login is limited per client address. */
@Injectable()
export class AuthService {
  private readonly limiter = new MemoryRateLimiter();
  private readonly proxies: TrustedProxies;

  constructor(
    private readonly users: UsersRepository,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly accessTokens: AccessTokenService,
    private readonly audit: AuditService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {
    this.proxies = new TrustedProxies(config.trustedProxies);
  }

  async loginLocal(email: string, password: string, client: ClientPeer): Promise<Session> {
    if (!this.config.localAuth.enabled) throw new AuthError('local_auth_disabled');
    const address = this.proxies.clientAddress(client.peer, client.forwardedFor);
    const decision = await this.limiter.hit(
      `login:${address}`,
      this.config.loginRateLimitPerMinute,
      60,
    );
    if (!decision.allowed)
      throw new AuthError('rate_limited', { retryAfterSeconds: decision.retryAfterSeconds });
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    const valid = user?.passwordHash
      ? await verifyPassword(password, user.passwordHash)
      : await verifyAgainstDummy(password);
    if (!user || !valid || !user.enabled) throw new AuthError('invalid_credentials');
    return this.signIn(user.email);
  }

  /** Starts a session after any successful sign-in (local now, the identity provider later). */
  async signIn(email: string): Promise<Session> {
    await this.users.grantAdminIfNoRoles(email);
    await this.users.touchLogin(email);
    const refresh = this.newRefreshToken();
    await this.refreshTokens.insert({
      email,
      tokenHash: refresh.hash,
      expiresAt: refresh.expiresAt,
    });
    return this.session(email, refresh.token, refresh.expiresAt);
  }

  async refresh(refreshToken: string | undefined): Promise<Session> {
    if (!refreshToken) throw new AuthError('refresh_token_invalid');
    const next = this.newRefreshToken();
    const outcome = await this.refreshTokens.rotate(sha256Hex(refreshToken), {
      tokenHash: next.hash,
      expiresAt: next.expiresAt,
    });
    if (outcome.kind !== 'rotated') throw new AuthError('refresh_token_invalid');
    return this.session(outcome.email, next.token, next.expiresAt);
  }

  async logout(refreshToken: string | undefined): Promise<void> {
    if (refreshToken) await this.refreshTokens.revokeFamilyOf(sha256Hex(refreshToken));
  }

  async changePassword(actor: HumanActor, current: string, next: string): Promise<void> {
    const user = await this.users.findByEmail(actor.email);
    if (!user) throw new AuthError('unauthorized');
    if (user.passwordHash === null) throw new AuthError('not_local_user');
    if (!(await verifyPassword(current, user.passwordHash)))
      throw new AuthError('current_password_incorrect');
    await this.users.setPasswordHash(user.email, await hashPassword(next));
    await this.refreshTokens.revokeAllOf(user.email);
    await this.audit.record({ action: 'user.password_change', actor, target: user.email });
  }

  private async session(
    email: string,
    refreshToken: string,
    refreshExpiresAt: Date,
  ): Promise<Session> {
    const user = await this.users.findByEmail(email);
    if (!user || !user.enabled) throw new AuthError('refresh_token_invalid');
    return {
      accessToken: await this.accessTokens.sign(email),
      refreshToken,
      expiresIn: this.accessTokens.ttlSeconds,
      refreshExpiresAt,
      user: { email, role: primaryRole(user.roles), roles: user.roles },
    };
  }

  private newRefreshToken(): { token: string; hash: string; expiresAt: Date } {
    const token = `rt_${randomSecret(32)}`;
    const expiresAt = new Date(Date.now() + this.config.jwt.refreshTokenTtlDays * 86_400_000);
    return { token, hash: sha256Hex(token), expiresAt };
  }
}
