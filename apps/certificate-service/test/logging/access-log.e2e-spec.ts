import { ProbeModule } from '../support/probe.module';
import { loginAdmin, type TestUser } from '../support/sessions';
import { ADMIN_EMAIL, startTestApp, type TestApp } from '../support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Access log - every route', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp({ extraImports: [ProbeModule] });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());
  beforeEach(() => t.logs.clear());

  it('writes one line with exactly the specified fields', async () => {
    const res = await t.http
      .get('/api/v1/users?filter=x')
      .set('authorization', `Bearer ${admin.accessToken}`)
      .set('x-request-id', 'req-fields-1')
      .set('x-forwarded-for', '203.0.113.7, 10.0.0.1')
      .expect(200);
    expect(res.headers['x-request-id']).toBe('req-fields-1');
    const lines = t.logs.accessLines('req-fields-1');
    expect(lines).toHaveLength(1);
    const line = lines[0];
    expect(line).toMatchObject({
      level: 'info',
      status: 200,
      method: 'GET',
      path: '/api/v1/users',
      route: '/api/v1/users',
      client_ip: '203.0.113.7',
      actor: ADMIN_EMAIL,
      actor_role: 'cert-admin',
      request_id: 'req-fields-1',
    });
    expect(typeof line.latency_ms).toBe('number');
    expect(line.latency_ms as number).toBeLessThan(5);
    expect(line.bytes).toBe(Number(res.headers['content-length']));
    expect(line.bytes as number).toBeGreaterThan(0);
    expect(line).not.toHaveProperty('errors');
    expect(line).not.toHaveProperty('serial');
  });

  it('generates a request id when none (or a hostile one) is given', async () => {
    const res = await t.http
      .get('/api/v1/version')
      .set('x-request-id', 'bad id\twith tab')
      .expect(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
    const [line] = t.logs.accessLines(res.headers['x-request-id']);
    expect(line).toMatchObject({ status: 200, client_ip: '127.0.0.1', route: '/api/v1/version' });
    expect(line).not.toHaveProperty('actor');
  });

  it('logs 4xx at warn with the error code', async () => {
    const res = await t.http.get('/api/v1/users').expect(401);
    const [line] = t.logs.accessLines(res.headers['x-request-id']);
    expect(line).toMatchObject({ level: 'warn', status: 401, errors: 'unauthorized' });
  });

  it('logs a panic as `panic recovered` and the request at error; the client gets a generic 500', async () => {
    const res = await t.http
      .get('/api/v1/probe/panic')
      .set('x-request-id', 'req-panic')
      .expect(500);
    expect(res.body).toEqual({ code: 'internal_error', message: 'internal error' });
    const panic = t.logs.lines().find((l) => l.msg === 'panic recovered');
    expect(panic).toMatchObject({
      level: 'error',
      method: 'GET',
      path: '/api/v1/probe/panic',
      request_id: 'req-panic',
    });
    expect(String(panic?.stack)).toContain('probe exploded');
    expect(t.logs.accessLines('req-panic')[0]).toMatchObject({ level: 'error', status: 500 });
  });

  it('logs successful high-frequency agent calls at debug, failed ones by outcome', async () => {
    const ok = await t.http.patch('/api/v1/requests/r1/status').expect(200);
    expect(t.logs.accessLines(ok.headers['x-request-id'])[0]).toMatchObject({
      level: 'debug',
      route: '/api/v1/requests/:id/status',
    });
    const missing = await t.http.patch('/api/v1/requests/missing/status').expect(404);
    expect(t.logs.accessLines(missing.headers['x-request-id'])[0]).toMatchObject({
      level: 'warn',
      status: 404,
    });
  });

  it('adds serial and attached errors, and request_id on every line of the request', async () => {
    const res = await t.http
      .post('/api/v1/probe/enroll')
      .set('x-request-id', 'req-enroll')
      .send({ csr: 'x' })
      .expect(200);
    expect(res.body).toEqual({ ok: true });
    const lines = t.logs.lines().filter((l) => l.request_id === 'req-enroll');
    expect(lines.map((l) => l.msg)).toEqual(['probe handled', 'request']);
    expect(lines[1]).toMatchObject({ serial: 'SN-PROBE-1', errors: 'csr_warning', level: 'info' });
  });

  it('makes one logger per request, bound to its id, not to the serialized request', async () => {
    // pino-http's own middleware made a second child per request, bound to the whole request
    // (headers, URL, query serialized and redacted) that no line of this service reads.
    const made: Array<Record<string, unknown>> = [];
    const previous = t.logger.onChild;
    t.logger.onChild = (child) => made.push(child.bindings());
    try {
      await t.http
        .post('/api/v1/probe/enroll')
        .set('x-request-id', 'req-one-child')
        .send({ csr: 'x' })
        .expect(200);
    } finally {
      t.logger.onChild = previous;
    }
    expect(made.filter((bindings) => bindings.request_id === 'req-one-child')).toHaveLength(1);
    expect(made.filter((bindings) => 'req' in bindings)).toEqual([]);
    const lines = t.logs.lines().filter((l) => l.request_id === 'req-one-child');
    expect(lines.map((l) => l.msg)).toEqual(['probe handled', 'request']);
    expect(lines[0]).not.toHaveProperty('req');
  });

  it('has an empty route for unknown paths', async () => {
    const res = await t.http.get('/api/v1/no-such-thing?x=1').expect(404);
    expect(res.body.code).toBe('not_found');
    expect(t.logs.accessLines(res.headers['x-request-id'])[0]).toMatchObject({
      route: '',
      path: '/api/v1/no-such-thing',
      level: 'warn',
    });
  });
});

describe('Access log - developer mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CERTSVC_DEV_MODE: 'true' } });
  });
  afterAll(() => t.close());

  it('writes latency_ms as text like 12.4ms', async () => {
    const res = await t.http.get('/api/v1/version').expect(200);
    expect(t.logs.accessLines(res.headers['x-request-id'])[0].latency_ms).toMatch(/^\d+\.\dms$/);
  });
});
