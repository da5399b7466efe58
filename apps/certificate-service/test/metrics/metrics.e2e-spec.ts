import { startTestApp, type TestApp } from '../support/test-app';

describe('Metrics - /metrics (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves Prometheus text without authentication, with route templates and an empty route for unknown paths', async () => {
    await t.http.get('/api/v1/version').expect(200);
    await t.http.get('/api/v1/users').expect(401);
    await t.http.get('/api/v1/nope/123').expect(404);
    const res = await t.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toContain(
      'certsvc_http_requests_total{method="GET",route="/api/v1/version",status="200"} 1',
    );
    expect(res.text).toContain(
      'certsvc_http_requests_total{method="GET",route="/api/v1/users",status="401"} 1',
    );
    expect(res.text).toContain('certsvc_http_requests_total{method="GET",route="",status="404"} 1');
    expect(res.text).not.toContain('/api/v1/nope');
    expect(res.text).toContain(
      'certsvc_http_request_duration_seconds_bucket{le="60",method="GET",route="/api/v1/version"} 1',
    );
    expect(res.text).toContain('# TYPE certsvc_audit_write_failures_total counter');
    expect(res.text).toContain('# TYPE certsvc_content_type_violations_total counter');
  });

  it('counts a body without application/json and answers 415 at the reject step', async () => {
    const res = await t.http
      .post('/api/v1/auth/local/login')
      .set('content-type', 'application/x-www-form-urlencoded')
      .send('email=a&password=b')
      .expect(415);
    expect(res.body).toEqual({
      code: 'unsupported_media_type',
      message: 'request body must be application/json',
    });
    await t.http
      .post('/api/v1/auth/local/login')
      .set('content-type', 'application/json; charset=utf-8')
      .send('{"email":"a@b.cd","password":"x"}')
      .expect(401);
    const metrics = (await t.http.get('/metrics')).text;
    expect(metrics).toContain(
      'certsvc_content_type_violations_total{route="/api/v1/auth/local/login",rung="reject"} 1',
    );
  });
});

describe('Metrics - content-type violations at the observe step', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { CERTSVC_CONTENT_TYPE_ENFORCEMENT: 'observe' } });
  });
  afterAll(() => t.close());

  it('counts the violation and lets the request through', async () => {
    const res = await t.http
      .post('/api/v1/auth/logout')
      .set('content-type', 'text/plain')
      .send('hello');
    expect(res.status).not.toBe(415);
    const metrics = (await t.http.get('/metrics')).text;
    expect(metrics).toContain(
      'certsvc_content_type_violations_total{route="/api/v1/auth/logout",rung="observe"} 1',
    );
  });
});
