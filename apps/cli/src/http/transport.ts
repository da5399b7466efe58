import type { CredentialStore, Service, StoredSession } from '../config/store';
import { networkError, responseError } from './errors';
import { refreshSession } from './refresh';

/** Sends one attempt of a call with these credential headers. */
export type Exchange = (authHeaders: Record<string, string>) => Promise<Response>;

export type ServiceAuth =
  | { kind: 'session'; session: StoredSession }
  /** findings: a service-account key (`sa_...`); certificates: a `wca_...` token. */
  | { kind: 'key'; key: string };

/**
 * Every call of one service: the credentials on each request, one refresh of an expired
 * session (then the request again), network failures and error answers as CliErrors.
 */
export class Transport {
  constructor(
    readonly service: Service,
    readonly baseUrl: string,
    private auth: ServiceAuth,
    private readonly store: CredentialStore,
  ) {}

  /** The credential headers of the next attempt. */
  private authHeaders(): Record<string, string> {
    if (this.auth.kind === 'session') {
      return { authorization: `Bearer ${this.auth.session.access_token}` };
    }
    if (this.service === 'findings') return { 'x-api-key': this.auth.key };
    return { authorization: `Bearer ${this.auth.key}` };
  }

  private async attempt(exchange: Exchange): Promise<Response> {
    try {
      return await exchange(this.authHeaders());
    } catch (error) {
      throw networkError(this.service, this.baseUrl, error);
    }
  }

  /**
   * One call: `exchange` sends it with the given credential headers. On 401 the session is
   * refreshed once (and stored) and `exchange` runs again; error answers become CliErrors.
   */
  async exchange(exchange: Exchange): Promise<Response> {
    let res = await this.attempt(exchange);
    if (res.status === 401 && this.auth.kind === 'session') {
      const session = await refreshSession(this.service, this.auth.session).catch(() => undefined);
      if (session) {
        await res.body?.cancel();
        this.auth = { kind: 'session', session };
        await this.store.save(this.service, session);
        res = await this.attempt(exchange);
      }
    }
    if (!res.ok) throw await responseError(this.service, res);
    return res;
  }

  /** A fetch Request built by `make` (again for a retry), sent with the credentials. */
  send(make: () => Request | Promise<Request>): Promise<Response> {
    return this.exchange(async (auth) => {
      const req = await make();
      const headers = new Headers(req.headers);
      for (const [k, v] of Object.entries(auth)) headers.set(k, v);
      return fetch(new Request(req, { headers }));
    });
  }

  /** The fetch of the typed (openapi-fetch) client: small JSON bodies, copied for a retry. */
  readonly fetch = (req: Request): Promise<Response> => {
    const copy = req.clone();
    let first = true;
    return this.send(() => {
      if (!first) return copy;
      first = false;
      return req;
    });
  };
}
