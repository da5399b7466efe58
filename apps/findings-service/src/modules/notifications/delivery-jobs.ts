import { Injectable, Logger } from '@nestjs/common';
import { addJob } from '@platform/queue';
import { deliverJobId, NOTIFICATION_DELIVER } from '../notification-queue/notification-deliver.job';
import { NotificationQueue } from '../notification-queue/notification-queue.provider';
import { NOTIFICATION_JOB_RETENTION_SECONDS } from '../notification-queue/sla-deadline-notification.job';
import type { DeliveryJobRef } from './notifications.repository';

/**
 * Adds `deliver` jobs. The delivery rows exist before any job (outbox): a job that cannot be
 * added (Redis down) is re-added by the reconciler, so a failure here is logged, not thrown.
 */
@Injectable()
export class DeliveryJobs {
  private readonly logger = new Logger('NotificationDeliveryJobs');

  constructor(private readonly queue: NotificationQueue) {}

  async add(refs: DeliveryJobRef[], delayMs = 0, suffix?: string): Promise<number> {
    let added = 0;
    for (const ref of refs) {
      try {
        await addJob(
          this.queue.queue,
          NOTIFICATION_DELIVER,
          { deliveryId: ref.id },
          {
            jobId: deliverJobId(ref.id, ref.attempts, ref.suffix ?? suffix),
            delay: Math.max(0, Math.round(delayMs)),
            // Removed once done, so the reconciler can add the same attempt's id again.
            removeOnComplete: true,
            removeOnFail: { age: NOTIFICATION_JOB_RETENTION_SECONDS.failed },
          },
        );
        added += 1;
      } catch (error) {
        this.logger.warn(
          `deliver job for ${ref.id} not added (the reconciler adds it later): ${(error as Error).message}`,
        );
        return added;
      }
    }
    return added;
  }
}
