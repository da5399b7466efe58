import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';

describe('Metrics - /metrics on METRICS_PORT (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves the HTTP, build and process metrics on the metrics port only', async () => {
    await request(t.url).get('/health').expect(200);
    await request(t.url)
      .get('/api/v1/admin/service-accounts/00000000-0000-4000-8000-000000000000')
      .expect(401);
    await request(t.url).get('/api/v1/does-not-exist').expect(404);
    const res = await request(t.metricsUrl).get('/metrics').expect(200);
    const text = res.text;
    expect(text).toContain('# TYPE http_requests_total counter');
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('http_request_duration_seconds_bucket{le="60"');
    expect(text).toContain('# TYPE http_requests_in_flight gauge');
    expect(text).toMatch(
      /findsvc_build_info\{version="\d+\.\d+\.\d{14}\+[0-9a-z]+",commit="[0-9a-z]+"\} 1/,
    );
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('http_requests_total{method="GET",route="/health",status_code="200"} 1');
    expect(text).toContain(
      'http_requests_total{method="GET",route="/api/v1/admin/service-accounts/:id",status_code="401"} 1',
    );
    expect(text).toContain('http_requests_total{method="GET",route="",status_code="404"} 1');
    await request(t.url).get('/metrics').expect(404);
  });
});
