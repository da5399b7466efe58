import { randomUUID } from 'node:crypto';
import type { OidcIdentity } from './oidc-identity';
import type { OidcRelyingParty } from './oidc-relying-party';
import { OidcSignInError } from './oidc-sign-in.error';
import type { OneTimeUse } from './one-time-use';
import type { SealedBox } from './sealed-box';

/** What travels (sealed) in the flow cookie between the login redirect and the callback. */
interface FlowState {
  id: string;
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  /** A loopback redirect URI the flow was started for (a native client, RFC 8252). */
  redirectUri?: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

function isFlowState(value: unknown): value is FlowState {
  const v = value as Partial<FlowState> | null;
  return (
    typeof v?.id === 'string' &&
    typeof v.provider === 'string' &&
    typeof v.state === 'string' &&
    typeof v.nonce === 'string' &&
    typeof v.verifier === 'string' &&
    (v.redirectUri === undefined || typeof v.redirectUri === 'string') &&
    typeof v.expiresAt === 'number'
  );
}

/**
 * The browser redirect flow run by the service itself: `begin` makes the authorization
 * request and seals its secrets for a short-lived cookie; `complete` opens it at the
 * callback, requires the same `state`, allows each flow to complete once, and signs in.
 */
export class OidcRedirectFlow {
  constructor(
    private readonly box: SealedBox,
    private readonly used: OneTimeUse,
    readonly ttlSeconds: number,
  ) {}

  /**
   * `loopbackRedirectUri`: a native client's own listener (`http://127.0.0.1:<port>/...`, see
   * `isLoopbackRedirectUri`) instead of the provider's configured redirect URI; the client then
   * replays the provider's answer at the callback with the flow cookie.
   */
  async begin(
    party: OidcRelyingParty,
    loopbackRedirectUri?: string,
  ): Promise<{ authorizationUrl: string; sealed: string }> {
    if (loopbackRedirectUri !== undefined && !isLoopbackRedirectUri(loopbackRedirectUri)) {
      throw new Error('not a loopback redirect URI');
    }
    const redirectUri = loopbackRedirectUri ?? redirectUriOf(party);
    const { url, request } = await party.authorizationRequest(redirectUri);
    const flow: FlowState = {
      id: randomUUID(),
      provider: party.settings.id,
      state: request.state,
      nonce: request.nonce,
      verifier: request.codeVerifier,
      ...(loopbackRedirectUri === undefined ? {} : { redirectUri: loopbackRedirectUri }),
      expiresAt: Math.floor(Date.now() / 1000) + this.ttlSeconds,
    };
    return { authorizationUrl: url, sealed: this.box.seal(flow) };
  }

  async complete(
    party: OidcRelyingParty,
    sealed: string | undefined,
    params: URLSearchParams,
  ): Promise<OidcIdentity> {
    const flow = sealed === undefined ? null : this.box.open(sealed);
    const now = Math.floor(Date.now() / 1000);
    if (!isFlowState(flow)) throw new OidcSignInError('state_invalid', 'no valid flow cookie');
    if (flow.provider !== party.settings.id) {
      throw new OidcSignInError('state_invalid', 'flow started for another provider');
    }
    if (flow.expiresAt <= now) throw new OidcSignInError('state_invalid', 'flow expired');
    if (params.get('state') !== flow.state) {
      throw new OidcSignInError('state_invalid', 'state differs from the flow');
    }
    if (!(await this.used.claim(`oidc-flow:${flow.id}`, flow.expiresAt - now))) {
      throw new OidcSignInError('state_invalid', 'flow already completed (replay)');
    }
    return party.signIn({
      redirectUri: flow.redirectUri ?? redirectUriOf(party),
      params,
      codeVerifier: flow.verifier,
      expectedNonce: flow.nonce,
      expectedState: flow.state,
    });
  }
}

function redirectUriOf(party: OidcRelyingParty): string {
  const uri = party.settings.redirectUri;
  if (!uri) throw new Error(`provider ${party.settings.id} has no redirect URI`);
  return uri;
}

/**
 * A native client's loopback redirect URI (RFC 8252, 7.3): `http`, the literal 127.0.0.1 or
 * [::1] (not `localhost`, 8.3), an explicit port, a path, no query, fragment or credentials.
 */
export function isLoopbackRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === '[::1]') &&
    url.port !== '' &&
    url.username === '' &&
    url.password === '' &&
    url.search === '' &&
    url.hash === '' &&
    !value.includes('#') &&
    !value.includes('?') &&
    url.href === value
  );
}
