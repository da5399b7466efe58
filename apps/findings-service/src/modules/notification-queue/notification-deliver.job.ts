import { isUUID } from 'class-validator';
import { defineJobContract } from '@platform/queue';

/**
 * `deliver`: one attempt of one notification delivery (docs/findings-service/notifications.md).
 * The row in `notification_deliveries` is the truth; the job only wakes a worker up. Job id
 * `dlv-<deliveryId>-<attempts>` (deliverJobId), so re-adds of one attempt collapse.
 */
export interface NotificationDeliverJob {
  deliveryId: string;
}

export const NOTIFICATION_DELIVER = defineJobContract<NotificationDeliverJob>('deliver', (data) => {
  if (typeof data !== 'object' || data === null) throw new Error('expected an object');
  const { deliveryId } = data as Record<string, unknown>;
  if (typeof deliveryId !== 'string' || !isUUID(deliveryId, 'loose')) {
    throw new Error('deliveryId must be a UUID');
  }
  return { deliveryId };
});

/** The job id of attempt `attempts` of a delivery (an `overloaded` put-back adds a suffix). */
export function deliverJobId(deliveryId: string, attempts: number, suffix?: string): string {
  return `dlv-${deliveryId}-${attempts}${suffix ? `-${suffix}` : ''}`;
}
