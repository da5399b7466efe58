import { Logger } from '@nestjs/common';
import request from 'supertest';
import { freshServiceAccount, freshUser, grant, login, loginAdmin } from '../support/sessions';
import { uniqueQueuePrefix } from '@platform/testing';
import { startTestApp, TestApp } from '../support/test-app';

async function hammer(
  t: TestApp,
  times: number,
  set: Record<string, string> = {},
  path = '/api/v1/auth/config',
) {
  const statuses: number[] = [];
  let last: request.Response | undefined;
  for (let i = 0; i < times; i++) {
    const req = request(t.url).get(path);
    for (const [k, v] of Object.entries(set)) void req.set(k, v);
    last = await req;
    statuses.push(last.status);
  }
  return { statuses, last: last! };
}

describe('Rate limits - per address (RATE_LIMIT_API) without trusted proxies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_API: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 in the error envelope with Retry-After, and ignores a forged X-Forwarded-For', async () => {
    const { statuses, last } = await hammer(t, 6);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last.body).toEqual({ error: 'too many requests', code: 'rate_limited' });
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const forged = await request(t.url)
      .get('/api/v1/auth/config')
      .set('X-Forwarded-For', '203.0.113.9');
    expect(forged.status).toBe(429);
    const ru = await request(t.url).get('/api/v1/auth/config').set('Accept-Language', 'ru');
    expect(ru.body.error).toBe('слишком много запросов');
  });

  it('does not limit /health and /version', async () => {
    const { statuses } = await hammer(t, 8, {}, '/health');
    expect(new Set(statuses)).toEqual(new Set([200]));
    await request(t.url).get('/version').expect(200);
  });
});

describe('Rate limits - replicas share one limit (counters in Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const shared = { RATE_LIMIT_API: '5', RATE_LIMIT_KEY_PREFIX: `${uniqueQueuePrefix()}:rl:` };
    a = await startTestApp(shared);
    b = await startTestApp(shared, { db: a.db });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('counts requests to either replica against the same per-address limit', async () => {
    const first = await hammer(a, 3);
    const second = await hammer(b, 3);
    expect([...first.statuses, ...second.statuses]).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await request(a.url).get('/api/v1/auth/config')).status).toBe(429);
  });
});

describe('Rate limits - per address behind a trusted proxy (TRUSTED_PROXIES)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_API: '3', TRUSTED_PROXIES: '127.0.0.1/32, ::1' });
  });
  afterAll(() => t.close());

  it('counts each forwarded client separately', async () => {
    const a = await hammer(t, 4, { 'X-Forwarded-For': '198.51.100.1' });
    expect(a.statuses).toEqual([200, 200, 200, 429]);
    const b = await hammer(t, 3, { 'X-Forwarded-For': '198.51.100.2' });
    expect(b.statuses).toEqual([200, 200, 200]);
  });
});

describe('Rate limits - per identity (RATE_LIMIT_API_USER, RATE_LIMIT_API_SERVICE_ACCOUNT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_API: '1000',
      RATE_LIMIT_API_USER: '6',
      RATE_LIMIT_API_SERVICE_ACCOUNT: '2',
    });
  });
  afterAll(() => t.close());

  it('limits a user across requests and leaves other users alone', async () => {
    const admin = await loginAdmin(t);
    const u1 = await freshUser(t, admin);
    const u2 = await freshUser(t, admin);
    const s1 = await login(t, u1.email, u1.password);
    const s2 = await login(t, u2.email, u2.password);
    const first = await hammer(t, 7, { Authorization: `Bearer ${s1.token}` }, '/api/v1/auth/me');
    expect(first.statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect(first.last.body.code).toBe('rate_limited');
    await request(t.url)
      .get('/api/v1/auth/me')
      .set('Authorization', `Bearer ${s2.token}`)
      .expect(200);
  });

  it('limits each service-account key', async () => {
    const admin = await loginAdmin(t);
    const sa = await freshServiceAccount(t, admin);
    await grant(t, admin, sa.id, { permission: 'upload_report', level: 'global' }).expect(201);
    const res = await hammer(t, 3, { 'X-API-Key': sa.key }, '/api/v1/test-probe/upload');
    expect(res.statuses).toEqual([200, 200, 429]);
  });
});

describe('Rate limits - login (RATE_LIMIT_AUTH) and the start-up warning', () => {
  let t: TestApp;
  let warnings: string[];
  beforeAll(async () => {
    const spy = jest.spyOn(Logger.prototype, 'warn');
    t = await startTestApp({
      RATE_LIMIT_AUTH: '2',
      RATE_LIMIT_API: '100',
      RATE_LIMIT_API_USER: '150',
      RATE_LIMIT_API_SERVICE_ACCOUNT: '90',
    });
    warnings = spy.mock.calls.map((c) => String(c[0]));
    spy.mockRestore();
  });
  afterAll(() => t.close());

  it('limits login attempts per address', async () => {
    const attempt = () =>
      request(t.url)
        .post('/api/v1/auth/local/login')
        .send({ login: 'x@example.test', password: 'wrong-password' });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    const third = await attempt();
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
  });

  it('warns at start when a per-identity limit exceeds the address floor, naming both numbers', () => {
    const warning = warnings.find((w) => w.includes('RATE_LIMIT_API_USER'));
    expect(warning).toMatch(/RATE_LIMIT_API_USER=150 exceeds RATE_LIMIT_API=100/);
    expect(warnings.some((w) => w.includes('RATE_LIMIT_API_SERVICE_ACCOUNT'))).toBe(false);
  });
});
