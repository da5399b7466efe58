import { Injectable } from '@nestjs/common';
import type { SlaDeadlineNotificationJob } from '../notification-queue/sla-deadline-notification.job';
import { DeliveryJobs } from './delivery-jobs';
import { NotificationFanOut } from './notification-fan-out';
import { NotificationFeedRepository } from './notification-feed.repository';
import { mergeIntoDraft, type NotificationItem } from './notification-filter';
import type { NotificationKind } from './notification-kinds';
import { NotificationsRepository } from './notifications.repository';

const KIND: Record<SlaDeadlineNotificationJob['kind'], NotificationKind> = {
  approaching: 'sla_approaching',
  breached: 'sla_breached',
};

/**
 * The consumer of the hourly deadline check's `sla-deadline` jobs: one sealed notification per
 * job (`source_key` = `sla:<job id>`, so a redelivered job adds nothing) and its deliveries, in
 * one transaction; then the `deliver` jobs.
 */
@Injectable()
export class SlaDeadlineNotifications {
  constructor(
    private readonly repository: NotificationsRepository,
    private readonly feed: NotificationFeedRepository,
    private readonly fanOut: NotificationFanOut,
    private readonly jobs: DeliveryJobs,
  ) {}

  async consume(jobId: string, job: SlaDeadlineNotificationJob): Promise<{ deliveries: number }> {
    const kind = KIND[job.kind];
    const refs = await this.repository.transaction(async (manager) => {
      const findings = await this.feed.findings(
        manager,
        job.violations.map((v) => v.findingId),
      );
      const items: NotificationItem[] = job.violations.map((v) => {
        const f = findings.get(v.findingId);
        return {
          id: v.findingId,
          title: f?.title ?? v.title,
          severity: v.severity,
          status: f?.status ?? 'new',
          product_id: v.productId,
          product: f?.product ?? '',
          location: f?.location ?? null,
          due_at: v.dueAt,
        };
      });
      const { counts, items: kept } = mergeIntoDraft(kind, { counts: {}, items: [] }, items);
      const id = await this.feed.insertSealed(manager, {
        projectId: job.projectId,
        kind,
        sourceKey: `sla:${jobId}`,
        counts,
        items: kept,
        findingCount: items.length,
      });
      if (id === null) return [];
      return this.fanOut.deliveries(manager, [
        { id, projectId: job.projectId, kind, counts, items: kept },
      ]);
    });
    await this.jobs.add(refs);
    return { deliveries: refs.length };
  }
}
