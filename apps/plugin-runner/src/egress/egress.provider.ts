import {
  PinnedEgressGuard,
  type EgressGuard,
  type EgressLabels,
  type EgressPolicy,
  type EgressResolver,
} from '@platform/egress';
import type { Registry } from 'prom-client';
import { registerEgressDenials } from './egress-metrics';

export interface EgressWiring {
  policy: EgressPolicy;
  /** The runner's metrics registry: `plugin_runner_egress_denials_total{reason}` goes there. */
  registry: Registry;
  logger?: { warn(fields: object, message: string): void };
  resolver?: EgressResolver;
  extraCa?: readonly string[];
}

/** How the runner's refusals and log lines speak: of the plugin, of PLUGIN_EGRESS_ALLOWLIST. */
export const RUNNER_EGRESS_LABELS: EgressLabels = {
  subject: 'plugin egress',
  callerField: 'plugin',
  callerNoun: 'the plugin',
  allowlist: 'PLUGIN_EGRESS_ALLOWLIST',
};

/**
 * The runner's egress guard (@platform/egress, docs/egress.md): the one instance every
 * plugin's `http-request` goes through.
 */
export function createEgressGuard(wiring: EgressWiring): EgressGuard {
  return new PinnedEgressGuard({
    policy: wiring.policy,
    denials: registerEgressDenials(wiring.registry),
    logger: wiring.logger,
    resolver: wiring.resolver,
    extraCa: wiring.extraCa,
    labels: RUNNER_EGRESS_LABELS,
  });
}
