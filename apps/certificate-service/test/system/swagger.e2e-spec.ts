import { startTestApp, type TestApp } from '../support/test-app';

describe('Swagger - /swagger/ (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves the interactive description', async () => {
    const res = await t.http.get('/swagger/').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('swagger-ui');
  });

  it('serves the OpenAPI document with X.Y as its version', async () => {
    const res = await t.http.get('/swagger/json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.info.version).toMatch(/^\d+\.\d+$/);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/auth/local/login', '/api/v1/users', '/health']),
    );
  });
});
