import type { RunningPluginRunner } from '../src/app/runner';
import { startTestRunner } from './runner-harness';

const VERSION = /^\d+\.\d+\.\d{14}\+[0-9a-z]+$/;

describe('plugin runner HTTP', () => {
  let runner: RunningPluginRunner;
  let base: string;

  beforeAll(async () => {
    runner = await startTestRunner();
    base = `http://127.0.0.1:${runner.httpPort}`;
  });
  afterAll(() => runner.close());

  it('Health - /health (GET) answers ok while serving', async () => {
    const res = await fetch(`${base}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('Health - /health (GET) echoes a sane X-Request-ID and generates one otherwise', async () => {
    const given = await fetch(`${base}/health`, { headers: { 'x-request-id': 'probe-42' } });
    expect(given.headers.get('x-request-id')).toBe('probe-42');
    const generated = await fetch(`${base}/health`, { headers: { 'x-request-id': 'bad id!' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('Version - /version (GET) returns the X.Y.BUILD+COMMIT stamp', async () => {
    const res = await fetch(`${base}/version`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['built_at', 'commit', 'component', 'version']);
    expect(body.component).toBe('plugin-runner');
    expect(body.version).toMatch(VERSION);
    expect(body.version.endsWith(`+${body.commit}`)).toBe(true);
    const stamp = body.version.split('.')[2].slice(0, 14);
    expect(new Date(body.built_at).toISOString().replace(/[-:T]|\.\d+Z$/g, '')).toBe(stamp);
  });

  it('Metrics - /metrics (GET) on the metrics port counts HTTP requests by route', async () => {
    await fetch(`${base}/version`);
    await fetch(`${base}/no-such-route`);
    const res = await fetch(`http://127.0.0.1:${runner.metricsPort}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /plugin_runner_http_requests_total\{method="GET",route="\/version",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /plugin_runner_http_requests_total\{method="GET",route="",status="404"\} 1/,
    );
    expect(text).toMatch(
      /plugin_runner_build_info\{version="[^"]+",commit="[^"]+",built_at="[^"]+"\} 1/,
    );
    expect(text).toContain('process_cpu_user_seconds_total');
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
  });
});
