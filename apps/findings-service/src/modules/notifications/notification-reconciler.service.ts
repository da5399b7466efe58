import { Injectable } from '@nestjs/common';
import { DeliveryJobs } from './delivery-jobs';
import { NotificationsRepository } from './notifications.repository';

/** Pending deliveries overdue this long get their job again. */
export const RECONCILE_OVERDUE_SECONDS = 30;
const RECONCILE_BATCH = 5_000;

/**
 * The leader's `notification-reconcile` task: re-adds the `deliver` job of pending deliveries
 * overdue by more than 30 s and of deliveries whose lease expired (their worker died). Job ids
 * are those of the attempt (a re-claim's: the attempt and the expired lease), so a live job is
 * not doubled. Also covers a crash between a commit
 * and its enqueue, and a Redis flush.
 */
@Injectable()
export class NotificationReconciler {
  constructor(
    private readonly repository: NotificationsRepository,
    private readonly jobs: DeliveryJobs,
  ) {}

  async run(): Promise<{ readded: number }> {
    const stranded = await this.repository.stranded(RECONCILE_OVERDUE_SECONDS, RECONCILE_BATCH);
    // An expired lease's job is still `active` in the queue until BullMQ sees it stalled: the
    // re-claim gets an id of its own, fixed per lease (a second pass does not double it).
    const readded = await this.jobs.add(
      stranded.map((d) => ({
        id: d.id,
        attempts: d.attempts,
        suffix: d.state === 'delivering' && d.leaseUntilMs ? `r${d.leaseUntilMs}` : undefined,
      })),
    );
    return { readded };
  }
}
