import type { Registry } from 'prom-client';
import type { EgressGuard } from './egress-guard';
import { registerEgressDenials } from './egress-metrics';
import type { EgressPolicy } from './egress-policy';
import type { EgressResolver } from './egress-resolver';
import { PinnedEgressGuard } from './pinned-egress-guard';

export interface EgressWiring {
  policy: EgressPolicy;
  /** The runner's metrics registry: `plugin_runner_egress_denials_total{reason}` goes there. */
  registry: Registry;
  logger?: { warn(fields: object, message: string): void };
  resolver?: EgressResolver;
  extraCa?: readonly string[];
}

/** The runner's egress guard: the one instance every plugin's `http-request` goes through. */
export function createEgressGuard(wiring: EgressWiring): EgressGuard {
  return new PinnedEgressGuard({
    policy: wiring.policy,
    denials: registerEgressDenials(wiring.registry),
    logger: wiring.logger,
    resolver: wiring.resolver,
    extraCa: wiring.extraCa,
  });
}
