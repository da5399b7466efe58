import { EGRESS_REFUSAL_REASONS, type EgressDenials } from '@platform/egress';
import { Counter, type Registry } from 'prom-client';

export const OUTBOUND_DENIALS_METRIC = 'findsvc_outbound_denials_total';

/**
 * `findsvc_outbound_denials_total{reason}` on the process's registry, every reason present from
 * 0. Registered once per registry (a second client of the same process counts on the same one).
 */
export function outboundDenials(registry: Registry): EgressDenials {
  let counter = registry.getSingleMetric(OUTBOUND_DENIALS_METRIC) as Counter<'reason'> | undefined;
  if (!counter) {
    counter = new Counter({
      name: OUTBOUND_DENIALS_METRIC,
      help: "The service's outgoing calls refused by the request-forgery guard, by reason",
      labelNames: ['reason'],
      registers: [registry],
    });
    for (const reason of EGRESS_REFUSAL_REASONS) counter.inc({ reason }, 0);
  }
  const registered = counter;
  return { count: (reason) => registered.inc({ reason }) };
}
