import { Inject, Injectable, Logger } from '@nestjs/common';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Every 6 hours (spec, Limits). */
export const WEBHOOK_RETENTION_PURGE_MS = 6 * 3600_000;

/** Removes deliveries older than `CERTSVC_WEBHOOK_RETENTION_DAYS`, whatever their status. */
@Injectable()
export class WebhookRetention {
  private readonly logger = new Logger('WebhookRetention');

  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async purge(now: Date = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.webhooks.retentionDays * 86_400_000);
    const removed = await this.deliveries.purgeCreatedBefore(before);
    if (removed > 0) this.logger.log({ removed }, 'webhook deliveries past retention removed');
    return removed;
  }
}
