import { loadPluginRunnerConfig } from '../../src/app/config/plugin-runner.config';
import { startPluginRunner, type RunningPluginRunner } from '../../src/app/runner';

/** The runner's own guard: built from PLUGIN_EGRESS_* and counted on the runner's /metrics. */
describe('egress guard in the running plugin runner', () => {
  let runner: RunningPluginRunner;

  beforeAll(async () => {
    runner = await startPluginRunner(
      loadPluginRunnerConfig({
        PLUGIN_RUNNER_HOST: '127.0.0.1',
        PLUGIN_RUNNER_PORT: '0',
        PLUGIN_RUNNER_GRPC_PORT: '0',
        METRICS_HOST: '127.0.0.1',
        METRICS_PORT: '0',
        LOG_LEVEL: 'error',
        APP_ENV: 'production',
        LOG_FILE_SINK_ENABLED: 'false',
        PLUGIN_EGRESS_ALLOW_HTTP: 'true',
      }),
    );
  });

  afterAll(async () => {
    await runner.close();
  });

  const metrics = async () =>
    (await fetch(`http://127.0.0.1:${runner.metricsPort}/metrics`)).text();

  it('serves plugin_runner_egress_denials_total{reason} with every reason from 0', async () => {
    const text = await metrics();
    expect(text).toContain('# TYPE plugin_runner_egress_denials_total counter');
    expect(text).toMatch(/plugin_runner_egress_denials_total\{reason="address_not_allowed"\} 0/);
    expect(text).toMatch(/plugin_runner_egress_denials_total\{reason="redirect_refused"\} 0/);
  });

  it('refuses through the configured policy and counts the refusal', async () => {
    const context = { caller: 'wiring-test', permittedHosts: ['127.0.0.1'] };
    // PLUGIN_EGRESS_ALLOW_HTTP=true lets http past the scheme rule; loopback is still refused.
    expect(
      await runner.egress.request(context, { method: 'GET', url: 'http://127.0.0.1/' }),
    ).toMatchObject({
      ok: false,
      reason: 'address_not_allowed',
    });
    expect(
      await runner.egress.request(context, { method: 'GET', url: 'ftp://127.0.0.1/' }),
    ).toMatchObject({
      ok: false,
      reason: 'scheme_not_allowed',
    });
    const text = await metrics();
    expect(text).toMatch(/plugin_runner_egress_denials_total\{reason="address_not_allowed"\} 1/);
    expect(text).toMatch(/plugin_runner_egress_denials_total\{reason="scheme_not_allowed"\} 1/);
  });
});
