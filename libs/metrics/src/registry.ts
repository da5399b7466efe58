import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One registry per process (and per app instance in tests). The global prom-client registry
 * is never used, so two apps booted in one test process do not collide.
 */
export function createMetricsRegistry(
  options: { defaultMetrics?: boolean; prefix?: string } = {},
): Registry {
  const registry = new Registry();
  if (options.defaultMetrics !== false) {
    collectDefaultMetrics({ register: registry, prefix: options.prefix });
  }
  return registry;
}

/** Buckets from 5 ms up to 60 s, as both services' specs require. */
export const HTTP_DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];
