import * as oidc from 'openid-client';
import { currentNumericDate, tokenTimeViolation } from '../token-time-claims';
import { IdTokenSignature } from './id-token-signature';
import { identityFromClaims, type OidcIdentity } from './oidc-identity';
import { isLoopbackHttp, type OidcProviderSettings } from './oidc-provider-settings';
import { OidcSignInError } from './oidc-sign-in.error';

/** The secrets of one authorization request, kept by whoever runs it until the callback. */
export interface OidcAuthorizationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcCallback {
  /** The redirect URI of the authorization request (the token request must repeat it). */
  redirectUri: string;
  /** What the provider sent back: `code`, `state`, `iss`, or `error`. */
  params: URLSearchParams;
  codeVerifier: string;
  expectedNonce: string;
  /** Absent when the state was checked by the party that ran the redirect (a SPA). */
  expectedState?: string;
}

const REQUEST_TIMEOUT_SECONDS = 10;

/**
 * An OpenID Connect relying party for one provider, built on openid-client: discovery,
 * authorization code with PKCE (S256), `state` and `nonce`, and ID-token validation —
 * claims (issuer, audience, expiry, nonce) by openid-client, the signature against the
 * provider's JWKS by `IdTokenSignature` (with key rotation), and `exp`/`iat` by the shared
 * time rule.
 */
export class OidcRelyingParty {
  private discovered?: Promise<{ config: oidc.Configuration; signature: IdTokenSignature }>;

  constructor(readonly settings: OidcProviderSettings) {}

  /** The provider's authorization endpoint (discovery), or null while it cannot be reached. */
  async authorizationEndpoint(): Promise<string | null> {
    try {
      return (await this.discover()).config.serverMetadata().authorization_endpoint ?? null;
    } catch {
      return null;
    }
  }

  /** Fresh `state`, `nonce` and PKCE verifier, and the provider address to send the browser to. */
  async authorizationRequest(
    redirectUri: string,
  ): Promise<{ url: string; request: OidcAuthorizationRequest }> {
    const { config } = await this.discover();
    const request = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes.join(' '),
      response_type: 'code',
      state: request.state,
      nonce: request.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, request };
  }

  /** Exchanges the authorization code and validates the ID token; the identity it names. */
  async signIn(callback: OidcCallback): Promise<OidcIdentity> {
    const { config, signature } = await this.discover();
    const current = new URL(callback.redirectUri);
    current.search = callback.params.toString();
    const metadata = config.serverMetadata();
    // A SPA hands over the code alone; the provider's `iss` response parameter (RFC 9207)
    // protects clients of several providers, and this service talks to exactly this one.
    if (
      metadata.authorization_response_iss_parameter_supported &&
      !current.searchParams.has('iss')
    ) {
      current.searchParams.set('iss', metadata.issuer);
    }
    let idToken: string | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: callback.codeVerifier,
        expectedNonce: callback.expectedNonce,
        expectedState: callback.expectedState,
        idTokenExpected: true,
      });
      idToken = tokens.id_token;
    } catch (error) {
      throw refusalOf(error);
    }
    if (!idToken)
      throw new OidcSignInError('id_token_invalid', 'no ID token in the token response');
    const claims = await signature.verify(idToken);
    const violation = tokenTimeViolation(claims, { nowSeconds: currentNumericDate() });
    if (violation) throw new OidcSignInError('id_token_invalid', `ID token ${violation}`);
    return identityFromClaims(claims, { assumeEmailVerified: this.settings.assumeEmailVerified });
  }

  private discover(): Promise<{ config: oidc.Configuration; signature: IdTokenSignature }> {
    this.discovered ??= this.runDiscovery().catch((error: unknown) => {
      this.discovered = undefined;
      throw error instanceof OidcSignInError
        ? error
        : new OidcSignInError('provider_unavailable', `discovery: ${(error as Error).message}`);
    });
    return this.discovered;
  }

  private async runDiscovery(): Promise<{
    config: oidc.Configuration;
    signature: IdTokenSignature;
  }> {
    const { issuer, clientId, clientSecret } = this.settings;
    const config = await oidc.discovery(
      new URL(issuer),
      clientId,
      { client_id: clientId },
      clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(clientSecret),
      {
        execute: isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [],
        timeout: REQUEST_TIMEOUT_SECONDS,
      },
    );
    const jwksUri = config.serverMetadata().jwks_uri;
    if (!jwksUri) throw new OidcSignInError('provider_unavailable', 'the provider has no jwks_uri');
    const signature = new IdTokenSignature(
      jwksUri,
      { issuer: config.serverMetadata().issuer, audience: clientId },
      REQUEST_TIMEOUT_SECONDS * 1000,
    );
    return { config, signature };
  }
}

/** Sorts openid-client's failures into refusals a caller can answer. */
function refusalOf(error: unknown): OidcSignInError {
  if (error instanceof OidcSignInError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    return new OidcSignInError(
      'provider_refused',
      `${error.error}: ${error.error_description ?? ''}`,
    );
  }
  if (error instanceof oidc.ClientError) {
    const unreachable = ['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON'];
    return unreachable.includes(error.code ?? '')
      ? new OidcSignInError('provider_unavailable', message)
      : new OidcSignInError('id_token_invalid', `${error.code}: ${whatFailed(error)}`);
  }
  return new OidcSignInError('provider_unavailable', message);
}

/** Claims and header parameters whose values may be logged: they name parties, never secrets. */
const LOGGABLE_CLAIMS = new Set(['iss', 'aud', 'azp']);
const MAX_LOGGED_VALUE = 200;

function logged(value: unknown): string {
  if (typeof value === 'function') return "the provider's algorithms";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_LOGGED_VALUE ? `${text.slice(0, MAX_LOGGED_VALUE)}...` : text;
}

/**
 * What exactly failed in openid-client's check of the token response, for the refusal log:
 * its own error says only "unexpected JWT claim value encountered" for a wrong `aud` and a
 * wrong `iss` alike. The cause names the claim or header parameter; for `iss`, `aud`, `azp`
 * and `alg` the value received and the one expected are added (never other claims: `nonce`,
 * `email` and the token stay out of logs).
 */
function whatFailed(error: oidc.ClientError): string {
  const cause = error.cause;
  if (!(cause instanceof Error)) return error.message;
  const facts = (cause as Error & { cause?: unknown }).cause as
    | {
        claim?: string;
        claims?: Record<string, unknown>;
        header?: Record<string, unknown>;
        expected?: unknown;
      }
    | undefined;
  if (facts?.claim !== undefined && LOGGABLE_CLAIMS.has(facts.claim)) {
    const got = facts.claims?.[facts.claim];
    return `${cause.message}: got ${logged(got)}, expected ${logged(facts.expected)}`;
  }
  if (facts?.header !== undefined && /"alg"/.test(cause.message)) {
    return `${cause.message}: got ${logged(facts.header.alg)}, expected ${logged(facts.expected)}`;
  }
  return cause.message;
}
