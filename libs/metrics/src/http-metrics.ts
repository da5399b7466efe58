import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { HTTP_DURATION_BUCKETS } from './registry';

export interface HttpMetricNames {
  requestsTotal: string;
  durationSeconds: string;
  /** Omit to skip the in-flight gauge. */
  inFlight?: string;
  /** Label name used for the status code (`status` or `status_code`). */
  statusLabel: string;
}

export interface HttpObservation {
  method: string;
  /** Route template (`/api/v1/devices/:serial`); empty string for unknown routes. */
  route: string;
  status: number;
  durationSeconds: number;
}

/** HTTP request metrics with configurable names; transport-agnostic. */
export class HttpMetrics {
  private readonly total: Counter<string>;
  private readonly duration: Histogram<string>;
  private readonly inFlight?: Gauge<string>;

  constructor(registry: Registry, names: HttpMetricNames) {
    this.total = new Counter({
      name: names.requestsTotal,
      help: 'HTTP requests by method, route template and status code',
      labelNames: ['method', 'route', names.statusLabel],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: names.durationSeconds,
      help: 'HTTP request duration in seconds',
      labelNames: ['method', 'route'],
      buckets: HTTP_DURATION_BUCKETS,
      registers: [registry],
    });
    if (names.inFlight) {
      this.inFlight = new Gauge({
        name: names.inFlight,
        help: 'HTTP requests currently being processed',
        registers: [registry],
      });
    }
    this.statusLabel = names.statusLabel;
  }

  private readonly statusLabel: string;

  started(): void {
    this.inFlight?.inc();
  }

  finished(o: HttpObservation): void {
    this.inFlight?.dec();
    this.total.inc({ method: o.method, route: o.route, [this.statusLabel]: String(o.status) });
    this.duration.observe({ method: o.method, route: o.route }, o.durationSeconds);
  }
}
