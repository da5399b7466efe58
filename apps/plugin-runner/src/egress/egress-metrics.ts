import { Counter, type Registry } from 'prom-client';
import { EGRESS_REFUSAL_REASONS, type EgressRefusalReason } from './egress-guard';

/** Counts refused plugin calls by reason on the runner's registry. */
export interface EgressDenials {
  count(reason: EgressRefusalReason): void;
}

export const EGRESS_DENIALS_METRIC = 'plugin_runner_egress_denials_total';

/** Registers `plugin_runner_egress_denials_total{reason}`, every reason present from 0. */
export function registerEgressDenials(registry: Registry): EgressDenials {
  const counter = new Counter({
    name: EGRESS_DENIALS_METRIC,
    help: 'Outgoing plugin HTTP calls refused by the egress guard, by reason',
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const reason of EGRESS_REFUSAL_REASONS) counter.inc({ reason }, 0);
  return { count: (reason) => counter.inc({ reason }) };
}
