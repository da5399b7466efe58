import { EGRESS_REFUSAL_REASONS, type EgressDenials } from '@platform/egress';
import { Counter, type Registry } from 'prom-client';

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
