import { startEnrollApp } from '../fixtures/enroll';
import type { TestApp } from '../support/test-app';

describe('SSH key enrollment rate limit - /api/v1/enroll/ssh-key* (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  const credentials = { serial: 'no-such-device', enrollment_token: 'x'.repeat(43) };

  it('answers 429 rate_limited with Retry-After once the minute is spent, counted apart from /enroll/nonce', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await t.http.post('/api/v1/enroll/ssh-key/status').send(credentials)).status);
    }
    expect(statuses).not.toContain(429);

    const limited = await t.http
      .post('/api/v1/enroll/ssh-key')
      .send({ ...credentials, public_key: 'ssh-ed25519 AAAA' })
      .expect(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // The other enroll routes have a bucket of their own.
    await t.http.post('/api/v1/enroll/nonce').expect(201);
  });
});
