import request from 'supertest';
import { bearer, createProduct, createProject } from '../support/catalog';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';
import { freshProduct } from '../support/findings-seed';

let t: TestApp;
let admin: Login;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
});
afterAll(() => t.close());

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const fieldsOf = (res: request.Response): string[] =>
  (res.body as { fields: { field: string }[] }).fields.map((f) => f.field);

function postJson(path: string, raw: string, token?: string): request.Test {
  const req = request(t.url).post(path).set('Content-Type', 'application/json');
  return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(raw);
}

const get = (path: string): request.Test =>
  request(t.url).get(path).set('Authorization', `Bearer ${admin.token}`);

describe('Hostile input - JSON body shape', () => {
  it('refuses a body nested 10 000 deep on an unauthenticated route with 400', async () => {
    const res = await postJson('/api/v1/auth/local/login', `{"login":${nested(10_000)}}`)
      .set('Accept-Language', 'ru')
      .expect(400);
    expect(res.body).toEqual({
      error: 'тело запроса вложено глубже 64 уровней',
      code: 'body_too_deep',
    });
  });

  it('refuses an array of 10 001 ids on the bulk route before validating it', async () => {
    const ids = Array.from({ length: 10_001 }, () => '00000000-0000-4000-8000-000000000000');
    const res = await postJson(
      '/api/v1/findings/bulk-tags',
      JSON.stringify({ finding_ids: ids, add: ['x'] }),
      admin.token,
    ).expect(400);
    expect(res.body).toEqual({
      error: 'an object or array in the request body has more than 10000 members',
      code: 'body_too_wide',
    });
  });

  it('validates a body nested exactly 64 deep like any other body', async () => {
    const res = await postJson('/api/v1/auth/local/login', `{"login":${nested(63)}}`).expect(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it('refuses a __proto__ key and malformed JSON with 400 bad_request', async () => {
    const proto = await postJson(
      '/api/v1/auth/local/login',
      '{"login":"a@b.cd","password":"x","__proto__":{"is_admin":true}}',
    ).expect(400);
    expect(proto.body).toMatchObject({ code: 'bad_request', problem: expect.any(String) });
    const malformed = await postJson('/api/v1/auth/local/login', '{"login":').expect(400);
    expect(malformed.body.code).toBe('bad_request');
  });

  it('reads an empty application/json body as {} on a route without a body', async () => {
    const res = await postJson('/api/v1/auth/logout', '', admin.token);
    expect(res.status).toBe(204);
  });

  it('still refuses an empty body on a route with required fields, naming them', async () => {
    const res = await postJson('/api/v1/auth/local/login', '').expect(400);
    expect(fieldsOf(res).sort()).toEqual(['login', 'password']);
  });

  it('answers 415 in the envelope for a non-JSON body on a JSON route', async () => {
    for (const [type, body] of [
      ['text/plain', '{"login":"a","password":"b"}'],
      ['application/x-www-form-urlencoded', 'login=a&password=b'],
      ['multipart/form-data; boundary=x', '--x\r\n\r\nv\r\n--x--\r\n'],
    ]) {
      const res = await request(t.url)
        .post('/api/v1/auth/local/login')
        .set('Content-Type', type)
        .send(body)
        .expect(415);
      expect(res.body).toEqual({ error: 'unsupported media type', code: 'unsupported_media_type' });
    }
  });
});

describe('Hostile input - request line', () => {
  it('answers a URL over 16 KiB with 431 in the envelope', async () => {
    const res = await request(t.url).get(`/api/v1/version?pad=${'u'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({
      error: 'request line and headers exceed 16 KiB',
      code: 'headers_too_large',
    });
  });
});

describe('Hostile input - text PostgreSQL cannot store', () => {
  it('refuses NUL and unpaired surrogates in login fields with 400 naming the field', async () => {
    const nul = await request(t.url)
      .post('/api/v1/auth/local/login')
      .send({ login: 'admin\u0000@example.test', password: 'x' })
      .expect(400);
    expect(nul.body.code).toBe('validation_failed');
    expect(fieldsOf(nul)).toEqual(['login']);
    const surrogate = await postJson(
      '/api/v1/auth/local/login',
      '{"login":"a@b.cd","password":"\\ud800"}',
    ).expect(400);
    expect(fieldsOf(surrogate)).toEqual(['password']);
  });

  it('refuses NUL in query parameters, path parameters and nested body fields', async () => {
    expect(fieldsOf(await get('/api/v1/findings?host=a%00b').expect(400))).toEqual(['host']);
    expect(fieldsOf(await get('/api/v1/jobs/a%00b').expect(400))).toEqual(['id']);
    const bulk = await request(t.url)
      .post('/api/v1/findings/bulk-tags')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ filters: { host: 'x\u0000' }, add: ['ok', 'bad\u0000'] })
      .expect(400);
    expect(fieldsOf(bulk)).toEqual(['add.1', 'filters.host']);
  });
});

describe('Hostile input - numeric query parameters', () => {
  it('refuses exponent, huge, fractional and negative numbers naming the field', async () => {
    const product = await freshProduct(t, admin);
    const finding = await request(t.url)
      .post(`/api/v1/products/${product.id}/findings`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ title: 'x', severity: 'LOW', host: 'h.example' })
      .expect(201);
    const actions = `/api/v1/findings/${finding.body.data.id as string}/actions`;
    const cases: [string, string][] = [
      ['/api/v1/findings?limit=1e20', 'limit'],
      ['/api/v1/findings?limit=99999999999999999999', 'limit'],
      ['/api/v1/jobs?offset=99999999999999999999', 'offset'],
      ['/api/v1/jobs?limit=2.5', 'limit'],
      ['/api/v1/jobs?offset=-1', 'offset'],
      [`${actions}?after=99999999999999999999`, 'after'],
      [`${actions}?after=1e3`, 'after'],
    ];
    for (const [path, field] of cases) {
      const res = await get(path);
      expect({ path, status: res.status, fields: fieldsOf(res) }).toEqual({
        path,
        status: 400,
        fields: [field],
      });
    }
    expect((await get(`${actions}?after=0&limit=5`).expect(200)).body.data).toHaveLength(1);
  });
});

describe('Hostile input - explicit null', () => {
  it('refuses null on product name and scan_enabled and leaves the product unchanged', async () => {
    const project = await createProject(t, bearer(admin));
    const product = await createProduct(t, bearer(admin), project.id, { description: 'd' });
    const put = (body: Record<string, unknown>) =>
      request(t.url)
        .put(`/api/v1/products/${product.id}`)
        .set('Authorization', `Bearer ${admin.token}`)
        .send(body);
    expect(fieldsOf(await put({ name: null }).expect(400))).toEqual(['name']);
    expect(fieldsOf(await put({ scan_enabled: null, name: 'n' }).expect(400))).toEqual([
      'scan_enabled',
    ]);
    const read = await get(`/api/v1/products/${product.id}`).expect(200);
    expect(read.body.data).toMatchObject({
      name: product.name,
      scan_enabled: false,
      description: 'd',
    });
    // null clears the nullable fields.
    const cleared = await put({ description: null }).expect(200);
    expect(cleared.body.data.description).toBeNull();
  });

  it('refuses null on the auto_verify_fixes setting; null on a deadline removes it', async () => {
    const project = await createProject(t, bearer(admin));
    const settings = `/api/v1/projects/${project.id}/settings`;
    const put = (body: Record<string, unknown>) =>
      request(t.url).put(settings).set('Authorization', `Bearer ${admin.token}`).send(body);
    expect(fieldsOf(await put({ auto_verify_fixes: null }).expect(400))).toEqual([
      'auto_verify_fixes',
    ]);
    expect(fieldsOf(await put({ remediation_days: null }).expect(400))).toEqual([
      'remediation_days',
    ]);
    const cleared = await put({ remediation_days: { INFO: 5, LOW: null } }).expect(200);
    expect(cleared.body.data.remediation_days).toMatchObject({ INFO: 5, LOW: null });
  });
});
