import { startEnrollApp } from '../fixtures/enroll';
import type { TestApp } from '../support/test-app';

describe('Issue nonce - /api/v1/enroll/nonce and /api/v1/enroll/source-nonce (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  it('issues distinct short-lived nonces without a session and stores only their hash', async () => {
    const a = await t.http.post('/api/v1/enroll/nonce').expect(201);
    const b = await t.http.post('/api/v1/enroll/source-nonce').expect(201);
    expect(a.body.nonce).not.toBe(b.body.nonce);
    const ttl = Date.parse(a.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(200_000);
    expect(ttl).toBeLessThanOrEqual(300_000);
    const { DataSource } = await import('typeorm');
    const rows = (await t.app
      .get(DataSource)
      .query('SELECT nonce_hash, kind FROM enroll_nonces')) as {
      nonce_hash: string;
      kind: string;
    }[];
    expect(rows.map((r) => r.kind).sort()).toEqual(['enroll', 'source']);
    expect(rows.map((r) => r.nonce_hash)).not.toContain(a.body.nonce);
  });

  it('answers 429 rate_limited with Retry-After past the per-address limit', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await t.http.post('/api/v1/enroll/nonce');
      statuses.push(last.status);
    }
    expect(statuses).toContain(429);
    expect(last?.status).toBe(429);
    expect(last?.body.code).toBe('rate_limited');
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
  });
});
