import { createMetricsRegistry, HttpMetrics, startMetricsServer } from './index';

describe('metrics lib', () => {
  it('keeps registries separate and records HTTP observations with configured names', async () => {
    const a = createMetricsRegistry({ defaultMetrics: false });
    const b = createMetricsRegistry({ defaultMetrics: false });
    const names = {
      requestsTotal: 'x_requests_total',
      durationSeconds: 'x_duration_seconds',
      inFlight: 'x_in_flight',
      statusLabel: 'status',
    };
    const ma = new HttpMetrics(a, names);
    new HttpMetrics(b, names); // same names in another registry: no collision
    ma.started();
    ma.finished({ method: 'GET', route: '/api/v1/things/:id', status: 200, durationSeconds: 0.02 });
    const text = await a.metrics();
    expect(text).toContain(
      'x_requests_total{method="GET",route="/api/v1/things/:id",status="200"} 1',
    );
    expect(text).toContain(
      'x_duration_seconds_bucket{le="60",method="GET",route="/api/v1/things/:id"} 1',
    );
    expect(text).toContain('x_in_flight 0');
    expect(await b.metrics()).toContain('x_requests_total 0'.split(' ')[0]);
  });

  it('serves /metrics on its own port and 404 elsewhere', async () => {
    const registry = createMetricsRegistry();
    const srv = await startMetricsServer(registry, 0, '127.0.0.1');
    try {
      const ok = await fetch(`http://127.0.0.1:${srv.port}/metrics`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`http://127.0.0.1:${srv.port}/other`)).status).toBe(404);
    } finally {
      await srv.close();
    }
  });
});
