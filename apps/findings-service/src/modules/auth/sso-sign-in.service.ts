import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  isLoopbackRedirectUri,
  OidcRedirectFlow,
  OidcRelyingParty,
  OidcSignInError,
  SealedBox,
} from '@platform/auth';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { AuthError } from './auth.errors';
import { AuthService, Session } from './auth.service';
import { CompletedSsoFlows } from './completed-sso-flows';

/**
 * Single sign-on through the configured OpenID providers: the redirect flow (state, nonce and
 * PKCE verifier sealed in a short-lived cookie, each flow completed once) and the sign-in
 * of the identity the provider returns. A provider is named by its id or its legacy alias.
 */
@Injectable()
export class SsoSignInService {
  private readonly logger = new Logger('Auth');
  private readonly parties = new Map<string, OidcRelyingParty>();
  private readonly flow: OidcRedirectFlow;

  constructor(
    @Inject(FINDINGS_CONFIG) config: FindingsConfig,
    completed: CompletedSsoFlows,
    private readonly auth: AuthService,
  ) {
    for (const settings of config.sso.providers) {
      const party = new OidcRelyingParty(settings);
      this.parties.set(settings.id, party);
      if (settings.legacyAlias) this.parties.set(settings.legacyAlias, party);
    }
    this.flow = new OidcRedirectFlow(
      new SealedBox(config.jwt.secret, 'findings-service sso flow'),
      completed,
      config.sso.flowTtlSeconds,
    );
  }

  get flowTtlSeconds(): number {
    return this.flow.ttlSeconds;
  }

  /**
   * The provider address to send the browser to, and the sealed flow for the cookie.
   * `loopbackRedirectUri`: a native client (the CLI) receives the provider's answer on its own
   * loopback listener and replays it at the callback with the flow cookie.
   */
  async begin(
    segment: string,
    loopbackRedirectUri?: string,
  ): Promise<{ authorizationUrl: string; sealed: string }> {
    const party = this.party(segment);
    if (loopbackRedirectUri !== undefined && !isLoopbackRedirectUri(loopbackRedirectUri)) {
      throw new AuthError('sso_redirect_uri_invalid');
    }
    return this.refusing(() => this.flow.begin(party, loopbackRedirectUri));
  }

  /** Completes the flow the provider returned to and opens a session for its user. */
  async complete(
    segment: string,
    sealed: string | undefined,
    params: URLSearchParams,
  ): Promise<Session> {
    const party = this.party(segment);
    const identity = await this.refusing(() => this.flow.complete(party, sealed, params));
    return this.auth.loginWithIdentity(identity, party.settings.id);
  }

  private party(segment: string): OidcRelyingParty {
    const party = this.parties.get(segment.toLowerCase());
    if (!party) throw new AuthError('sso_provider_unknown');
    return party;
  }

  private async refusing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof OidcSignInError)) throw error;
      this.logger.warn({ refusal: error.refusal, reason: error.reason }, 'single sign-on refused');
      throw new AuthError(`sso_${error.refusal}`);
    }
  }
}
