import type { PeriodicTask } from '@platform/database';
import type { CertsvcConfig } from '../app/config/certsvc-config';
import type { WebhookDeliveryWorker } from '../modules/webhooks/webhook-delivery.worker';
import {
  WEBHOOK_RETENTION_PURGE_MS,
  type WebhookRetention,
} from '../modules/webhooks/webhook-retention';

/**
 * Outbox delivery every `CERTSVC_WEBHOOK_POLL_SECONDS` (only with `CERTSVC_WEBHOOKS_ENABLED`):
 * run by the leading worker like every periodic task; its claims (`FOR UPDATE SKIP LOCKED`
 * plus a lease) would stay correct if several replicas ran it at once.
 */
export function webhookDeliveryTask(
  config: CertsvcConfig,
  worker: WebhookDeliveryWorker,
  everyMs = config.webhooks.pollSeconds * 1000,
): PeriodicTask[] {
  if (!config.webhooks.enabled) return [];
  return [{ name: 'webhook delivery', everyMs, run: async () => void (await worker.drain()) }];
}

/** Deliveries past `CERTSVC_WEBHOOK_RETENTION_DAYS` removed every 6 hours. */
export function webhookRetentionTask(
  retention: WebhookRetention,
  everyMs = WEBHOOK_RETENTION_PURGE_MS,
): PeriodicTask {
  return {
    name: 'webhook retention purge',
    everyMs,
    run: async () => void (await retention.purge()),
  };
}
