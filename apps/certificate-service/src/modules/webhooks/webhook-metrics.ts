import { Injectable } from '@nestjs/common';
import { Counter, type Registry } from 'prom-client';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';

export const WEBHOOK_DELIVERIES_METRIC = 'certsvc_webhook_deliveries_total';
export const WEBHOOK_EGRESS_DENIALS_METRIC = 'certsvc_webhook_egress_denials_total';

function counter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labels: L[],
): Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames: labels, registers: [registry] });
}

/** Webhook metrics, in the service's registry (names in docs/certificate-service/webhooks.md). */
@Injectable()
export class WebhookMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly egressDenials: Counter<'reason'>;

  constructor(metrics: CertsvcMetrics) {
    this.deliveries = counter(
      metrics.registry,
      WEBHOOK_DELIVERIES_METRIC,
      'Webhook delivery attempts by outcome: delivered, retry (failed attempt, will retry), failed (attempts exhausted)',
      ['outcome'],
    );
    this.egressDenials = counter(
      metrics.registry,
      WEBHOOK_EGRESS_DENIALS_METRIC,
      'Webhook and corp-ownership webhook calls refused by the request-forgery guard, by reason',
      ['reason'],
    );
  }
}
