import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { TestIdentityProvider } from '@platform/testing';
import { startFindingsApp } from './support/services';
import { cliHome, type CliHome } from './support/run-cli';

// `platform login findings --sso` end to end: the real findings API with a real OpenID provider
// (oidc-provider); the test plays the browser with plain HTTP requests to the provider
// (login_hint picks the account) and then follows its redirect to the CLI's loopback listener.
type App = Awaited<ReturnType<typeof startFindingsApp>>;
let idp: TestIdentityProvider;
let app: App;
let home: CliHome;

const CLIENT = { id: 'platform-cli-test', secret: 'cli-test-client-secret' };

beforeAll(async () => {
  idp = await TestIdentityProvider.start({
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        // A native client: the loopback redirect URI matches on any port (RFC 8252, 7.3).
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    accounts: { ann: { email: 'Ann@Corp.Test', email_verified: true, name: 'Ann Corp' } },
  });
  app = await startFindingsApp({
    SSO_PROVIDERS: 'corp',
    SSO_CORP_ISSUER: idp.issuer,
    SSO_CORP_CLIENT_ID: CLIENT.id,
    SSO_CORP_CLIENT_SECRET: CLIENT.secret,
    SSO_CORP_REDIRECT_URI: 'https://findings.test/api/v1/auth/sso/corp/callback',
    SSO_CORP_NAME: 'Corporate SSO',
    SSO_AFTER_LOGIN_URL: '/ui/',
  });
  home = cliHome();
}, 60_000);

afterAll(async () => {
  home?.remove();
  await app?.close();
  await idp?.stop();
});

const ADDRESS = /open this address in a browser[^\n]*\n\s+(\S+)/;

describe('platform login findings --sso', () => {
  it('signs in through the provider and the loopback listener; the session is stored 0600 and works', async () => {
    const cli = home.start(['login', 'findings', '--sso', '--url', app.url, '--no-browser']);
    const [, address] = await cli.stderrMatch(ADDRESS);
    const authorization = new URL(address);
    expect(authorization.origin).toBe(idp.issuer);
    const loopback = new URL(authorization.searchParams.get('redirect_uri') ?? '');
    expect(loopback.hostname).toBe('127.0.0.1');
    expect(loopback.port).not.toBe('');

    // A request to the listener that is not this sign-in's answer is refused; the wait goes on.
    const stray = await fetch(`${loopback.href}?code=stolen&state=forged`);
    expect(stray.status).toBe(400);

    const back = await idp.authorize(authorization.href, 'ann');
    expect(back.origin).toBe(loopback.origin);
    const landing = await fetch(back);
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('Signed in to the findings service as ann@corp.test');

    const r = await cli.done;
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('as ann@corp.test');
    expect(statSync(home.credentials).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(home.credentials, 'utf8')) as {
      findings: { email: string; access_token: string; refresh_token: string };
    };
    expect(stored.findings.email).toBe('ann@corp.test');
    expect(stored.findings.refresh_token).toBeTruthy();

    // The stored session is a real one: the service knows its access token.
    const me = await fetch(`${app.url}/api/v1/auth/me`, {
      headers: { authorization: `Bearer ${stored.findings.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { user: { email: string } } }).data.user.email).toBe(
      'ann@corp.test',
    );

    // The SSO session refreshes like a password one: a dead access token is replaced through
    // the stored refresh cookie, and the rotated pair is stored 0600.
    writeFileSync(
      home.credentials,
      JSON.stringify({ findings: { ...stored.findings, access_token: 'expired.jwt.token' } }),
      { mode: 0o600 },
    );
    const jobs = await home.run(['jobs', 'list', '--json']);
    expect(jobs.code).toBe(0);
    const after = JSON.parse(readFileSync(home.credentials, 'utf8')) as typeof stored;
    expect(after.findings.access_token).not.toBe('expired.jwt.token');
    expect(after.findings.refresh_token).not.toBe(stored.findings.refresh_token);
    expect(statSync(home.credentials).mode & 0o777).toBe(0o600);
  });

  it('the provider refusing the sign-in (unknown account) exits 3 with its reason', async () => {
    const cli = home.start(['login', 'findings', '--sso', '--url', app.url, '--no-browser']);
    const [, address] = await cli.stderrMatch(ADDRESS);
    const back = await idp.authorize(address, 'nobody');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect((await fetch(back)).status).toBe(400);
    const r = await cli.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/platform: the identity provider refused the sign-in: access_denied/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('an answer of another sign-in is refused by the listener; without an answer the wait ends with exit 7', async () => {
    const first = home.start(['login', 'findings', '--sso', '--url', app.url, '--no-browser']);
    const [, address] = await first.stderrMatch(ADDRESS);
    const back = await idp.authorize(address, 'ann');
    await fetch(back);
    expect((await first.done).code).toBe(0);
    // The same answer again at a new listener is not this flow's: 400, the CLI keeps waiting.
    const second = home.start([
      'login',
      'findings',
      '--sso',
      '--url',
      app.url,
      '--no-browser',
      '--timeout',
      '6',
    ]);
    const [, next] = await second.stderrMatch(ADDRESS);
    const replay = new URL(new URL(next).searchParams.get('redirect_uri') ?? '');
    replay.search = back.search;
    expect((await fetch(replay)).status).toBe(400);
    const r = await second.done;
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('no answer from the browser within 6 s');
  });

  it('bad input: unknown provider 5, server down 4, --sso for certificates 2, bad --timeout 2', async () => {
    const unknown = await home.run([
      'login',
      'findings',
      '--sso',
      '--provider',
      'github',
      '--url',
      app.url,
      '--no-browser',
    ]);
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain('sso_provider_unknown');

    const down = await home.run([
      'login',
      'findings',
      '--sso',
      '--url',
      'http://127.0.0.1:9',
      '--no-browser',
    ]);
    expect(down.code).toBe(4);
    expect(down.stderr).toMatch(/cannot reach the findings service/);

    const certs = await home.run(['login', 'certificates', '--sso', '--url', app.url]);
    expect(certs.code).toBe(2);

    const timeout = await home.run([
      'login',
      'findings',
      '--sso',
      '--url',
      app.url,
      '--timeout',
      'soon',
    ]);
    expect(timeout.code).toBe(2);
    for (const r of [unknown, down, certs, timeout]) {
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 20_000);
});
