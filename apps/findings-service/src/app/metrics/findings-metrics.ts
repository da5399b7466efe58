import { createMetricsRegistry, HttpMetrics } from '@platform/metrics';
import { currentBuildInfo } from '@platform/versioning';
import { Gauge, Registry } from 'prom-client';

/** The process's own registry with the HTTP and build-info metrics of the findings service. */
export class FindingsMetrics {
  readonly registry: Registry;
  readonly http: HttpMetrics;

  constructor() {
    this.registry = createMetricsRegistry();
    this.http = new HttpMetrics(this.registry, {
      requestsTotal: 'http_requests_total',
      durationSeconds: 'http_request_duration_seconds',
      inFlight: 'http_requests_in_flight',
      statusLabel: 'status_code',
    });
    const build = currentBuildInfo();
    new Gauge({
      name: 'findsvc_build_info',
      help: 'Build of the running process (always 1)',
      labelNames: ['version', 'commit'],
      registers: [this.registry],
    }).set({ version: build.version, commit: build.commit }, 1);
  }
}
