import { randomBytes, randomUUID } from 'node:crypto';
import { uniqueQueuePrefix } from '@platform/testing';
import type { Response, Test } from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

/** Every limiter of the service allows this many requests a minute in this test. */
const LIMIT = 3;

/**
 * Two API replicas of one deployment: one database, one Redis, the same counter prefix. Each
 * limiter must hold one budget for both; with per-process counters each replica would allow
 * the whole limit again.
 */
describe('Rate limits - two API replicas share one budget per limiter', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = {
      CERTSVC_RATE_LIMIT_KEY_PREFIX: `${uniqueQueuePrefix()}:rl:`,
      CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      CERTSVC_KEYHOLDER_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      CERTSVC_LOGIN_RATE_LIMIT_PER_MINUTE: String(LIMIT),
      // Single sign-on switched on (its provider is never reached by these requests).
      CERTSVC_OIDC_ISSUER: 'http://127.0.0.1:9/realms/none',
      CERTSVC_OIDC_CLIENT_ID: 'certificate-ui',
      CERTSVC_OIDC_REDIRECT_URIS: 'http://cert-ui.test/auth/callback',
    };
    a = await startTestApp({ env });
    b = await startTestApp({ env, database: a.db });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /**
   * Spends the budget with requests alternating between the replicas, then expects both
   * replicas to refuse: 429 `rate_limited` in the certificate envelope, with `Retry-After`.
   */
  async function expectOneBudget(send: (replica: TestApp) => Test): Promise<Response> {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) statuses.push((await send(i % 2 === 0 ? a : b)).status);
    expect(statuses).not.toContain(429);
    let refused: Response | undefined;
    for (const replica of [b, a]) {
      refused = await send(replica).expect(429);
      expect(Object.keys(refused.body as object).sort()).toEqual(['code', 'message']);
      expect(refused.body.code).toBe('rate_limited');
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    return refused as Response;
  }

  it('enroll (/enroll*): one budget per client address', async () => {
    const refused = await expectOneBudget((r) => r.http.post('/api/v1/enroll/nonce'));
    expect(refused.body.message).toBe('too many requests; try again later');
  });

  it('license attest (the enroll limit, its own bucket): one budget', async () => {
    await expectOneBudget((r) =>
      r.http.post('/api/v1/license/attest').send({ nonce: randomBytes(16).toString('hex') }),
    );
  });

  it('SSH-key enroll (the enroll limit, its own bucket): one budget', async () => {
    await expectOneBudget((r) =>
      r.http
        .post('/api/v1/enroll/ssh-key/status')
        .send({ serial: 'no-such-device', enrollment_token: 'x'.repeat(43) }),
    );
  });

  it('agent secret: one budget per request id', async () => {
    const id = randomUUID();
    const refused = await expectOneBudget((r) =>
      r.http.get(`/api/v1/requests/${id}/status`).set('x-agent-secret', 'not-the-secret'),
    );
    expect(refused.body.message).toBe('too many requests for this request id; try again later');
    // another request id has a budget of its own
    await a.http
      .get(`/api/v1/requests/${randomUUID()}/status`)
      .set('x-agent-secret', 'not-the-secret')
      .expect(401);
  });

  it('key-holder access: one budget per client address', async () => {
    await expectOneBudget((r) => r.http.get('/api/v1/keyholder/keys?login=alice'));
  });

  it('login: local login and the single sign-on callback draw on one budget', async () => {
    let attempt = 0;
    const refused = await expectOneBudget((r) => {
      attempt += 1;
      return attempt % 2 === 1
        ? r.http
            .post('/api/v1/auth/local/login')
            .send({ email: 'nobody@certsvc.test', password: 'wrong-password-1234' })
        : r.http.post('/api/v1/auth/callback').send({
            code: 'any-code',
            code_verifier: 'v'.repeat(43),
            redirect_uri: 'http://cert-ui.test/auth/callback',
          });
    });
    expect(refused.body.message).toBe('too many attempts; try again later');
  });
});
