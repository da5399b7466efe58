import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refuseWritesQuotingTheRow, waitFor, type TestIdentityProvider } from '@platform/testing';
import { returnToApp, ssoEnv, ssoFlow, startCorpProvider, type SsoFlow } from '../support/sso';
import { startTestApp, type TestApp } from '../support/test-app';

type Line = Record<string, unknown> & {
  msg?: string;
  req?: { url?: string; query?: Record<string, unknown> };
};

/**
 * The authorization `code` and `state` of a single sign-on callback travel in its URL; they
 * must not reach a log line: not the request line, not a refusal, not an error's line, in no
 * sink (the file sink holds the same serialized lines as stdout).
 */
describe('Single sign-on callback - code and state never reach the log', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let root: string;
  let logDir: string;
  const secrets: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'findings-sso-logs-'));
    logDir = join(root, 'logs');
    idp = await startCorpProvider();
    t = await startTestApp({
      ...ssoEnv(idp),
      LOG_FILE_SINK_ENABLED: 'true',
      LOG_DIR: logDir,
      LOG_LEVEL: 'debug',
    });
    // A first sign-in of this address fails in the database: an unhandled error's line.
    await refuseWritesQuotingTheRow(t.config.databaseUrl, [
      { table: 'users', event: 'INSERT', when: "NEW.email LIKE '%@db-fault.test'" },
    ]);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
    await rm(root, { recursive: true, force: true });
  });

  /** Keeps the flow's code (none when the provider refused) and state to grep for. */
  function remember(flow: SsoFlow): SsoFlow {
    const { searchParams } = flow.callback;
    const state = searchParams.get('state');
    if (!state) throw new Error('the provider sent no state');
    secrets.push(state, ...(searchParams.has('code') ? [searchParams.get('code') ?? ''] : []));
    return flow;
  }

  async function logLines(): Promise<{ text: string; lines: Line[] }> {
    const names = await readdir(logDir);
    const text = (await Promise.all(names.map((n) => readFile(join(logDir, n), 'utf8')))).join('');
    const lines = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Line);
    return { text, lines };
  }

  it('writes the callback lines with [redacted] in place of code and state', async () => {
    const signedIn = await returnToApp(t, remember(await ssoFlow(t, idp, 'ann'))).expect(302);
    expect(signedIn.headers.location).toBe('/ui/');
    const refused = await returnToApp(t, remember(await ssoFlow(t, idp, 'ghost'))).expect(401);
    expect(refused.body.code).toBe('sso_provider_refused');
    idp.craftNextIdToken((claims) => ({
      claims: { ...claims, email: 'new@db-fault.test' },
      key: idp.signingKey,
    }));
    const failed = await returnToApp(t, remember(await ssoFlow(t, idp, 'dora'))).expect(500);
    const errorId = (failed.body as { error_id: string }).error_id;

    const { text, lines } = await waitFor(
      async () => {
        const read = await logLines();
        const callbacks = read.lines.filter((l) => l.req?.url?.includes('/sso/corp/callback'));
        const kinds = ['request completed', 'single sign-on refused', `unhandled error ${errorId}`];
        for (const kind of kinds) {
          if (!callbacks.some((l) => l.msg?.startsWith(kind))) throw new Error(`no "${kind}" line`);
        }
        return read;
      },
      { timeoutMs: 10_000, intervalMs: 50, what: 'the three callback lines in the file sink' },
    );

    expect(secrets).toHaveLength(5); // three states, two codes (the provider refused one)
    for (const secret of secrets) expect(text).not.toContain(secret);
    const callbacks = lines.filter((l) => l.req?.url?.includes('/sso/corp/callback'));
    expect(callbacks.length).toBeGreaterThanOrEqual(6);
    for (const line of callbacks) {
      expect(line.req?.url).toMatch(/[?&]state=\[redacted\]/);
      expect(line.req?.query).toMatchObject({ state: '[redacted]' });
      if (line.req?.url?.includes('code=')) {
        expect(line.req.url).toMatch(/[?&]code=\[redacted\]/);
        expect(line.req.query).toMatchObject({ code: '[redacted]' });
      }
    }
  });

  describe('refusal log names what failed (crafted: the proxy swaps the provider token)', () => {
    const FOREIGN_ISSUER = 'https://idp.attacker.example';

    /** Returns through a callback whose ID token `craft` built; the refusal line it logged. */
    async function refusalLine(
      craft: Parameters<TestIdentityProvider['craftNextIdToken']>[0],
    ): Promise<Line> {
      idp.craftNextIdToken(craft);
      const res = await returnToApp(t, remember(await ssoFlow(t, idp, 'dora'))).expect(401);
      expect(res.body.code).toBe('sso_id_token_invalid');
      const requestId = String(res.headers['x-request-id']);
      return waitFor(
        async () => {
          const line = (await logLines()).lines.find(
            (l) =>
              l.msg === 'single sign-on refused' &&
              (l.req as { id?: string } | undefined)?.id === requestId,
          );
          if (!line) throw new Error('no refusal line yet');
          return line;
        },
        { timeoutMs: 10_000, intervalMs: 50, what: 'the refusal line' },
      );
    }

    it('a wrong audience: the aud claim, as received and as expected', async () => {
      const line = await refusalLine((claims) => ({
        claims: { ...claims, aud: 'some-other-client', azp: 'some-other-client' },
        key: idp.signingKey,
      }));
      expect(line).toMatchObject({ level: 40, refusal: 'id_token_invalid' });
      expect(line.reason).toMatch(/"aud" \(audience\)/);
      expect(line.reason).toContain('got "some-other-client", expected "findings-service"');
      expect(line.reason).not.toMatch(/"iss"/);
    });

    it('a foreign issuer (signed with the real key): the iss claim', async () => {
      const line = await refusalLine((claims) => ({
        claims: { ...claims, iss: FOREIGN_ISSUER },
        key: idp.signingKey,
      }));
      expect(line.reason).toMatch(/"iss" \(issuer\)/);
      expect(line.reason).toContain(`got "${FOREIGN_ISSUER}", expected "${idp.issuer}"`);
      expect(line.reason).not.toMatch(/"aud"|"alg"/);
    });

    it('an unsigned token, alg none: the alg header, even with a foreign issuer', async () => {
      for (const iss of [undefined, FOREIGN_ISSUER]) {
        const line = await refusalLine((claims) => ({
          claims: iss ? { ...claims, iss } : claims,
          key: null,
        }));
        expect(line.reason).toMatch(/"alg" header parameter: got "none"/);
        expect(line.reason).not.toMatch(/"iss"/);
      }
    });
  });
});
