import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { NativeHostEvents } from '../../native/native-plugin-host';
import type { PluginHostObserver } from '../../plugin-host/plugin-host';

export interface PluginMetrics {
  /** For both tiers' hosts: invocations, durations, traps, time-outs, denials, pools. */
  observer: PluginHostObserver;
  /** Native restarts (the board's status is wired separately). */
  nativeRestarted: NativeHostEvents['processRestarted'];
}

/**
 * The runner's plugin metrics (docs/plugins/runner-api.md, "Metrics"), on its metrics port.
 * Labels are plugin ids (bounded by the installed plugins), runtimes, operations, outcomes.
 */
export function createPluginMetrics(registry: Registry): PluginMetrics {
  const invocations = new Counter({
    name: 'plugin_runner_invocations_total',
    help: 'Plugin invocations by plugin, runtime, operation and outcome (ok or the error code)',
    labelNames: ['plugin', 'runtime', 'operation', 'outcome'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'plugin_runner_invocation_duration_seconds',
    help: 'Duration of plugin invocations',
    labelNames: ['plugin', 'runtime'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const traps = new Counter({
    name: 'plugin_runner_traps_total',
    help: 'Invocations that ended in a trap (the instance or process was discarded)',
    labelNames: ['plugin', 'runtime'],
    registers: [registry],
  });
  const timeouts = new Counter({
    name: 'plugin_runner_timeouts_total',
    help: 'Invocations stopped at their deadline',
    labelNames: ['plugin', 'runtime'],
    registers: [registry],
  });
  const denials = new Counter({
    name: 'plugin_runner_denials_total',
    help: 'Host calls the runner refused, by plugin, host call and reason',
    labelNames: ['plugin', 'call', 'reason'],
    registers: [registry],
  });
  const pool = new Gauge({
    name: 'plugin_runner_pool_instances',
    help: 'Warm instances (wasm workers, native processes) per plugin by state (idle, busy)',
    labelNames: ['plugin', 'runtime', 'state'],
    registers: [registry],
  });
  const restarts = new Counter({
    name: 'plugin_runner_native_restarts_total',
    help: 'Native plugin processes restarted, by reason (crash, unhealthy, start_failed)',
    labelNames: ['plugin', 'reason'],
    registers: [registry],
  });
  return {
    observer: {
      invocationFinished: (event) => {
        const labels = { plugin: event.pluginId, runtime: event.runtime };
        invocations.inc({ ...labels, operation: event.operation, outcome: event.outcome });
        duration.observe(labels, event.durationMs / 1000);
        if (event.outcome === 'trap') traps.inc(labels);
        if (event.outcome === 'deadline_exceeded') timeouts.inc(labels);
      },
      hostCallDenied: (event) =>
        denials.inc({ plugin: event.pluginId, call: event.call, reason: event.reason }),
      poolChanged: (event) => {
        const labels = { plugin: event.pluginId, runtime: event.runtime };
        pool.set({ ...labels, state: 'idle' }, event.idle);
        pool.set({ ...labels, state: 'busy' }, event.busy);
      },
    },
    nativeRestarted: (event) => restarts.inc({ plugin: event.pluginId, reason: event.reason }),
  };
}
