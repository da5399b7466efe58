import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { paths as FindingsPaths, components } from '../api/findings.gen';
import type { Context } from '../command';
import type { StoredSession } from '../config/store';
import { CliError, EXIT, usageError } from '../errors';
import { networkError, responseError } from '../http/errors';
import { expiresAt, FINDINGS_REFRESH_COOKIE, findingsRefreshCookie } from '../http/refresh';

// The routes of the spec's single sign-on, bound to the generated contract: a renamed route or
// a dropped redirect_uri parameter breaks the CLI's type-check.
const CONFIG = '/api/v1/auth/config' satisfies keyof FindingsPaths;
const LOGIN = '/api/v1/auth/sso/{provider}/login' satisfies keyof FindingsPaths;
const CALLBACK = '/api/v1/auth/sso/{provider}/callback' satisfies keyof FindingsPaths;
const REFRESH = '/api/v1/auth/token/refresh' satisfies keyof FindingsPaths;
type LoginQuery = NonNullable<FindingsPaths[typeof LOGIN]['get']['parameters']['query']>;
const REDIRECT_PARAM: keyof LoginQuery = 'redirect_uri';
const FLOW_COOKIE = 'findsvc_sso_flow';

export interface SsoOptions {
  provider?: string;
  openBrowser: boolean;
  timeoutSeconds: number;
}

async function call(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'manual' });
  } catch (error) {
    throw networkError('findings', new URL(url).origin, error);
  }
}

function cookieValue(res: Response, name: string): string | undefined {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** The provider to use: the one named, else the only one the service lists. */
async function pickProvider(base: string, named: string | undefined): Promise<string> {
  if (named) return named;
  const res = await call(`${base}${CONFIG}`, {});
  if (!res.ok) throw await responseError('findings', res);
  const body = (await res.json()) as { data: components['schemas']['AuthConfigDto'] };
  const ids = body.data.providers.map((p) => p.id);
  if (ids.length === 1) return ids[0];
  if (ids.length === 0) {
    throw new CliError(
      EXIT.refused,
      `the findings service at ${base} has no single sign-on provider (sign in with --email)`,
      'sso_not_configured',
    );
  }
  throw usageError(
    `the service has several sign-on providers: choose one with --provider (${ids.join(', ')})`,
  );
}

function page(res: ServerResponse, status: number, text: string): void {
  const html = `<!doctype html><meta charset="utf-8"><title>platform</title><p>${text}</p>\n`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
  res.end(html);
}

/** Opens `url` with the desktop's opener; a failure only leaves the printed address. */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // the address is printed
  }
}

interface Arrival {
  query: URLSearchParams;
  reply: (status: number, text: string) => void;
}

/**
 * The browser flow of a native client (RFC 8252): a listener on 127.0.0.1:<random port>, the
 * service's login route with that listener as redirect_uri (the flow cookie kept here), the
 * provider's answer received by the listener and replayed at the service's callback with the
 * flow cookie, the refresh cookie exchanged for an access token.
 */
export async function ssoSignIn(
  ctx: Context,
  base: string,
  options: SsoOptions,
): Promise<StoredSession> {
  const provider = await pickProvider(base, options.provider);
  let arrive: (a: Arrival) => void = () => undefined;
  const arrived = new Promise<Arrival>((resolve) => (arrive = resolve));
  let expectedState: string | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const at = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || at.pathname !== '/callback') return page(res, 404, 'Not found.');
    // Only the answer to this sign-in: a request with another state is refused, the wait goes on.
    if (!expectedState || at.searchParams.get('state') !== expectedState) {
      return page(res, 400, 'This is not the sign-in the platform command started.');
    }
    arrive({ query: at.searchParams, reply: (status, text) => page(res, status, text) });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  let timer: NodeJS.Timeout | undefined;
  try {
    const segment = encodeURIComponent(provider);
    const start = await call(
      `${base}${LOGIN.replace('{provider}', segment)}?${REDIRECT_PARAM}=${encodeURIComponent(redirectUri)}`,
      {},
    );
    const location = start.headers.get('location');
    const flow = cookieValue(start, FLOW_COOKIE);
    if (start.status !== 302 || !location || !flow) {
      if (start.status === 302) {
        throw new CliError(EXIT.unavailable, 'the service started no sign-in flow', 'sso_no_flow');
      }
      throw await responseError('findings', start);
    }
    expectedState = new URL(location).searchParams.get('state');
    ctx.note(
      `To sign in, open this address in a browser (waiting up to ${options.timeoutSeconds} s):`,
    );
    ctx.note(`  ${location}`);
    if (options.openBrowser) openBrowser(location);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new CliError(
              EXIT.timeout,
              `no answer from the browser within ${options.timeoutSeconds} s; run the login again`,
              'sso_timeout',
            ),
          ),
        options.timeoutSeconds * 1000,
      );
    });
    const { query, reply } = await Promise.race([arrived, timeout]);
    try {
      const session = await complete(base, segment, query, flow);
      reply(200, `Signed in to the findings service as ${session.email}. You can close this tab.`);
      return session;
    } catch (error) {
      reply(400, `The sign-in failed: ${(error as Error).message}. See the terminal.`);
      throw error;
    }
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}

/** Replays the provider's answer at the service's callback and opens the session. */
async function complete(
  base: string,
  segment: string,
  query: URLSearchParams,
  flow: string,
): Promise<StoredSession> {
  const error = query.get('error');
  if (error) {
    const why = query.get('error_description');
    throw new CliError(
      EXIT.auth,
      `the identity provider refused the sign-in: ${error}${why ? ` (${why})` : ''}`,
      'sso_provider_refused',
    );
  }
  const back = await call(`${base}${CALLBACK.replace('{provider}', segment)}?${query}`, {
    headers: { cookie: `${FLOW_COOKIE}=${flow}` },
  });
  const refresh = cookieValue(back, FINDINGS_REFRESH_COOKIE);
  if (back.status !== 302 || !refresh) {
    if (back.status === 302) {
      throw new CliError(EXIT.unavailable, 'the service opened no session', 'sso_no_session');
    }
    throw await responseError('findings', back);
  }
  const token = await call(`${base}${REFRESH}`, {
    method: 'POST',
    headers: { cookie: `${FINDINGS_REFRESH_COOKIE}=${refresh}` },
  });
  if (!token.ok) throw await responseError('findings', token);
  const body = (await token.json()) as { data: components['schemas']['TokenResponseDto'] };
  return {
    url: base,
    email: body.data.user.email,
    access_token: body.data.access_token,
    refresh_token: findingsRefreshCookie(token) ?? refresh,
    expires_at: expiresAt(body.data.expires_in),
  };
}
