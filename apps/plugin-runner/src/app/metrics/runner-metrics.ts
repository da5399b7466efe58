import { createMetricsRegistry, HttpMetrics } from '@platform/metrics';
import type { BuildInfo } from '@platform/versioning';
import { Gauge, type Registry } from 'prom-client';

export interface RunnerMetrics {
  registry: Registry;
  http: HttpMetrics;
}

/** One registry per runner: process metrics, HTTP metrics and a build-info gauge. */
export function createRunnerMetrics(build: BuildInfo): RunnerMetrics {
  const registry = createMetricsRegistry();
  const http = new HttpMetrics(registry, {
    requestsTotal: 'plugin_runner_http_requests_total',
    durationSeconds: 'plugin_runner_http_request_duration_seconds',
    inFlight: 'plugin_runner_http_requests_in_flight',
    statusLabel: 'status',
  });
  new Gauge({
    name: 'plugin_runner_build_info',
    help: 'Build of the running plugin runner (always 1)',
    labelNames: ['version', 'commit', 'built_at'],
    registers: [registry],
  }).set({ version: build.version, commit: build.commit, built_at: build.builtAt }, 1);
  return { registry, http };
}
