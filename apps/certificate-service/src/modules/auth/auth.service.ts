import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AccessTokens,
  hashPassword,
  type IssuedRefreshToken,
  OidcRelyingParty,
  OidcSignInError,
  type OidcRefusal,
  PasswordLogin,
  RefreshTokenRotation,
  verifyPassword,
} from '@platform/auth';
import { SharedRateLimits } from '@platform/http';
import type { HumanActor } from '../../app/access/actor';
import { primaryRole } from '../../app/access/roles';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuditService } from '../audit/audit.service';
import { UsersRepository } from '../users/users.repository';
import { AuthError, type AuthErrorCode } from './auth.errors';

export interface Session {
  accessToken: string;
  refresh: IssuedRefreshToken;
  expiresIn: number;
  user: Pick<HumanActor, 'email' | 'role' | 'roles'>;
}

export interface ClientPeer {
  peer: string;
  forwardedFor: string | string[] | undefined;
}

/** The SPA runs the redirect and checks `state` itself: a code exchange never reports it. */
function refusalCode(refusal: OidcRefusal): AuthErrorCode {
  return refusal === 'state_invalid' ? 'oidc_provider_refused' : `oidc_${refusal}`;
}

/** The code the SPA received from the identity provider, and the secrets of its request. */
export interface ProviderCallback {
  code: string;
  codeVerifier: string;
  redirectUri: string;
  nonce: string | undefined;
}

/**
 * Sign-in (local password or the identity provider), sessions and the own password. Both
 * ways in draw on one login budget per client address (`CERTSVC_LOGIN_RATE_LIMIT_PER_MINUTE`,
 * shared by every replica): a code exchange makes an outgoing token request. Every sign-in
 * goes through `signIn`, which makes the first person to sign in `cert-admin`.
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  private readonly passwords: PasswordLogin;
  private readonly provider: OidcRelyingParty | undefined;
  private readonly redirectUris: ReadonlySet<string>;

  constructor(
    private readonly users: UsersRepository,
    private readonly refreshTokens: RefreshTokenRotation,
    private readonly accessTokens: AccessTokens,
    private readonly audit: AuditService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly limits: SharedRateLimits,
  ) {
    this.passwords = new PasswordLogin({ limiter: limits, perMinute: config.rateLimits.auth });
    this.provider = config.oidc && new OidcRelyingParty(config.oidc);
    this.redirectUris = new Set(config.oidc?.redirectUris ?? []);
  }

  /** The identity provider, when single sign-on is configured. */
  get identityProvider(): OidcRelyingParty | undefined {
    return this.provider;
  }

  async loginLocal(email: string, password: string, client: ClientPeer): Promise<Session> {
    if (!this.config.localAuth.enabled) throw new AuthError('local_auth_disabled');
    await this.admit(client);
    const user = await this.passwords.check(
      await this.users.findByEmail(email.trim().toLowerCase()),
      (u) => ({ passwordHash: u.passwordHash, active: u.enabled }),
      password,
    );
    if (!user) throw new AuthError('invalid_credentials');
    return this.signIn(user.email);
  }

  /**
   * Exchanges the SPA's authorization code (PKCE) at the provider and signs in the person
   * its ID token names, joined by email; a first sign-in creates the user without roles.
   */
  async loginWithProvider(callback: ProviderCallback, client: ClientPeer): Promise<Session> {
    if (!this.provider) throw new AuthError('oidc_disabled');
    await this.admit(client);
    // Never forward a redirect URI of the client's choosing to the provider.
    if (!this.redirectUris.has(callback.redirectUri)) {
      throw new AuthError('oidc_redirect_uri_not_allowed');
    }
    if (!callback.nonce) throw new AuthError('oidc_nonce_required');
    let email: string;
    try {
      const identity = await this.provider.signIn({
        redirectUri: callback.redirectUri,
        params: new URLSearchParams({ code: callback.code }),
        codeVerifier: callback.codeVerifier,
        expectedNonce: callback.nonce,
      });
      email = identity.email;
    } catch (error) {
      if (!(error instanceof OidcSignInError)) throw error;
      this.logger.warn({ refusal: error.refusal, reason: error.reason }, 'single sign-on refused');
      throw new AuthError(refusalCode(error.refusal));
    }
    if (await this.users.create(email, null, [])) {
      this.logger.log({ email }, 'user created at first single sign-on');
    }
    const user = await this.users.findByEmail(email);
    if (!user?.enabled) throw new AuthError('invalid_credentials');
    return this.signIn(user.email);
  }

  /** Counts one sign-in attempt against the client address's login budget (429 past it). */
  private async admit(client: ClientPeer): Promise<void> {
    const admitted = await this.passwords.admit(
      this.limits.clientAddress(client.peer, client.forwardedFor),
    );
    if (!admitted.allowed) {
      throw new AuthError('rate_limited', { retryAfterSeconds: admitted.retryAfterSeconds });
    }
  }

  /** Starts a session after any successful sign-in (local or the identity provider). */
  async signIn(email: string): Promise<Session> {
    await this.users.grantAdminIfNoRoles(email);
    await this.users.touchLogin(email);
    return this.session(email, await this.refreshTokens.issue(email));
  }

  async refresh(refreshToken: string | undefined): Promise<Session> {
    const outcome = await this.refreshTokens.rotate(refreshToken);
    if (outcome.kind !== 'rotated') throw new AuthError('refresh_token_invalid');
    return this.session(outcome.subject, outcome.issued);
  }

  /** Ends the session of the presented refresh token (its family). */
  logout(refreshToken: string | undefined): Promise<void> {
    return this.refreshTokens.endSession(refreshToken);
  }

  async changePassword(actor: HumanActor, current: string, next: string): Promise<void> {
    const user = await this.users.findByEmail(actor.email);
    if (!user) throw new AuthError('unauthorized');
    if (user.passwordHash === null) throw new AuthError('not_local_user');
    if (!(await verifyPassword(current, user.passwordHash)))
      throw new AuthError('current_password_incorrect');
    await this.users.setPasswordHash(user.email, await hashPassword(next));
    await this.refreshTokens.endAllSessions(user.email);
    await this.audit.record({ action: 'user.password_change', actor, target: user.email });
  }

  private async session(email: string, refresh: IssuedRefreshToken): Promise<Session> {
    const user = await this.users.findByEmail(email);
    if (!user || !user.enabled) throw new AuthError('refresh_token_invalid');
    return {
      accessToken: await this.accessTokens.sign(email),
      refresh,
      expiresIn: this.accessTokens.ttlSeconds,
      user: { email, role: primaryRole(user.roles), roles: user.roles },
    };
  }
}
