import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';

const VERSION = /^\d+\.\d+\.\d{14}\+[0-9a-z]+$/;

describe('Health and version - /health, /version, /api/v1/version (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers /health with plain JSON', async () => {
    const res = await request(t.url).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers /version plain and /api/v1/version wrapped, X.Y.BUILD+COMMIT', async () => {
    const plain = (await request(t.url).get('/version').expect(200)).body;
    const wrapped = (await request(t.url).get('/api/v1/version').expect(200)).body;
    expect(wrapped).toEqual({ data: plain });
    expect(plain.component).toBe('backend');
    expect(plain.version).toMatch(VERSION);
    expect(plain.version.endsWith(`+${plain.commit}`)).toBe(true);
    expect(new Date(plain.built_at).toISOString().replace(/\.\d+Z$/, 'Z')).toBe(plain.built_at);
  });

  it('echoes a sane X-Request-ID and generates one otherwise', async () => {
    const echoed = await request(t.url).get('/health').set('X-Request-ID', 'trace-123').expect(200);
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const generated = await request(t.url)
      .get('/api/v1/nope')
      .set('X-Request-ID', 'bad id\t')
      .expect(404);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the interactive OpenAPI description and its JSON', async () => {
    const ui = await request(t.url).get('/api/docs').redirects(1).expect(200);
    expect(ui.text).toContain('swagger');
    const doc = await request(t.url).get('/api/docs-json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/api/v1/auth/local/login']).toBeDefined();
  });
});
