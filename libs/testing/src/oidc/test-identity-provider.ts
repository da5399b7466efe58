import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import { freePort } from '../free-port';
import { waitFor } from '../wait-for';
import {
  type JwtClaims,
  jwtClaims,
  newSigningKey,
  signJwt,
  type TestSigningKey,
} from './test-signing-key';

/** A client registered at the provider (oidc-provider client metadata). */
export interface TestOidcClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: 'client_secret_basic' | 'none';
  /** `native`: loopback redirect URIs match on any port (RFC 8252, a CLI's listener). */
  application_type?: 'web' | 'native';
}

/** An account that can sign in; its id is the `login_hint` that selects it. */
export interface TestOidcAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/**
 * What the token-endpoint proxy puts in place of the provider's ID token: the claims (start
 * from the real ones), the key that signs it (`null`: `alg: none`), extra header fields.
 */
export interface CraftedIdToken {
  claims: JwtClaims;
  key: TestSigningKey | null;
  header?: Record<string, unknown>;
}

export interface TestIdentityProviderOptions {
  clients: TestOidcClient[];
  accounts: Record<string, TestOidcAccount>;
}

/**
 * A real OpenID provider (oidc-provider, in a child process) behind a loopback proxy. The
 * issuer is the proxy's address, so every request passes it: the proxy can swap the ID token
 * of the next token response for a crafted one — tokens a compliant provider would never
 * issue. Keys are generated here, so tests sign with the provider's own key or rotate it.
 */
export class TestIdentityProvider {
  private craft: ((real: JwtClaims) => CraftedIdToken) | undefined;
  private readonly served = new Map<string, number>();

  private constructor(
    readonly issuer: string,
    private readonly child: ChildProcess,
    private readonly childPort: number,
    private readonly proxy: Server,
    private keys: TestSigningKey[],
  ) {}

  static async start(options: TestIdentityProviderOptions): Promise<TestIdentityProvider> {
    const [proxyPort, childPort] = [await freePort(), await freePort()];
    const issuer = `http://127.0.0.1:${proxyPort}`;
    const keys = [newSigningKey()];
    const child = spawn(process.execPath, [join(__dirname, 'test-oidc-provider.mjs')], {
      env: {
        ...process.env,
        TEST_OIDC_SETTINGS: JSON.stringify({
          port: childPort,
          issuer,
          clients: options.clients,
          accounts: options.accounts,
          jwks: { keys: keys.map((k) => k.privateJwk) },
        }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const proxy = createServer();
    const provider = new TestIdentityProvider(issuer, child, childPort, proxy, keys);
    proxy.on('request', (req, res) => provider.forward(req, res));
    await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
    try {
      await waitFor(
        () => {
          if (child.exitCode !== null) throw new Error(`provider exited: ${output}`);
          if (!output.includes('ready')) throw new Error(`provider not ready: ${output}`);
        },
        { what: 'the test OpenID provider to listen', timeoutMs: 15_000 },
      );
    } catch (error) {
      await provider.stop();
      throw error;
    }
    return provider;
  }

  /** The key the provider signs with now. */
  get signingKey(): TestSigningKey {
    return this.keys[0];
  }

  /** Replaces the ID token of the next token response with `craft(real claims)`. */
  craftNextIdToken(craft: (real: JwtClaims) => CraftedIdToken): void {
    this.craft = craft;
  }

  /** How many requests the provider got for `path` (e.g. `/jwks`: key-set fetches). */
  requestsFor(path: string): number {
    return this.served.get(path) ?? 0;
  }

  /** Rotates keys: a new key signs from now on; the old one stays published beside it. */
  async rotateKeys(): Promise<TestSigningKey> {
    const next = newSigningKey();
    this.keys = [next, ...this.keys];
    const res = await fetch(`http://127.0.0.1:${this.childPort}/__control/jwks`, {
      method: 'PUT',
      body: JSON.stringify({ keys: this.keys.map((k) => k.privateJwk) }),
    });
    if (res.status !== 204) throw new Error(`key rotation answered ${res.status}`);
    return next;
  }

  /**
   * Plays the browser: opens `authorizationUrl` (with `login_hint=<account>`), keeps the
   * provider's cookies, follows its redirects and returns the first address outside the
   * provider — the client's redirect URI with `code` and `state` (or `error`).
   */
  async authorize(authorizationUrl: string, account: string): Promise<URL> {
    const start = new URL(authorizationUrl);
    start.searchParams.set('login_hint', account);
    const jar = new Map<string, string>();
    let url = start;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const eq = pair.indexOf('=');
        const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
        if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) jar.delete(name);
        else jar.set(name, value);
      }
      const location = res.headers.get('location');
      await res.arrayBuffer();
      if (!location) throw new Error(`the provider answered ${res.status} to ${url.href}`);
      const next = new URL(location, url);
      if (next.origin !== new URL(this.issuer).origin) return next;
      url = next;
    }
    throw new Error('the provider redirected more than 10 times');
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.proxy.closeAllConnections();
      this.proxy.close(() => resolve());
    });
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
  }

  private forward(req: IncomingMessage, res: import('node:http').ServerResponse): void {
    const path = new URL(req.url ?? '/', this.issuer).pathname;
    this.served.set(path, (this.served.get(path) ?? 0) + 1);
    const craft = req.method === 'POST' && path === '/token' ? this.craft : undefined;
    if (craft) this.craft = undefined;
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: this.childPort,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        if (!craft || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () => {
          const tokens = JSON.parse(body) as { id_token?: string };
          const crafted = craft(tokens.id_token ? jwtClaims(tokens.id_token) : {});
          const swapped = JSON.stringify({
            ...tokens,
            id_token: signJwt(crafted.claims, crafted.key, crafted.header),
          });
          const headers = {
            ...answer.headers,
            'content-length': String(Buffer.byteLength(swapped)),
          };
          res.writeHead(200, headers).end(swapped);
        });
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  }
}
