import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { addJob } from '@platform/queue';
import { Clock } from '../../app/clock';
import { NotificationQueue } from '../notification-queue/notification-queue.provider';
import {
  MAX_VIOLATIONS_PER_NOTIFICATION,
  NOTIFICATION_JOB_RETENTION_SECONDS,
  SLA_DEADLINE_NOTIFICATION,
  type SlaDeadlineNotificationJob,
} from '../notification-queue/sla-deadline-notification.job';
import {
  SlaCheckRepository,
  type OpenedViolations,
  type UnnotifiedViolation,
} from './sla-check.repository';

/** Violations read per round of the notification outbox. */
const OUTBOX_BATCH = 5_000;

export interface SlaCheckResult extends OpenedViolations {
  /** Open violations resolved because their condition no longer holds. */
  reconciled: number;
  /** Notification jobs added and the violations they carry. */
  jobs: number;
  notified: number;
}

/**
 * The hourly deadline check (worker, leader only): resolves open violations that no longer
 * hold, opens `approaching` and `breached` violations for running clocks, then hands every
 * violation not yet notified to the notification queue — one job per project, kind and chunk
 * of up to 500, with a job id derived from the violations it carries, so a check that fails
 * between adding a job and marking its violations adds no second job (BullMQ keeps ids
 * unique) and the next check retries what is left.
 */
@Injectable()
export class SlaCheckService {
  private readonly logger = new Logger('SlaCheck');

  constructor(
    private readonly repository: SlaCheckRepository,
    private readonly notifications: NotificationQueue,
    private readonly clock: Clock,
  ) {}

  async run(): Promise<SlaCheckResult> {
    const now = this.clock.now();
    const reconciled = await this.repository.reconcile(now);
    const opened = await this.repository.open(now);
    const { jobs, notified } = await this.notify(now);
    const result = { reconciled, ...opened, jobs, notified };
    this.logger.log(
      `sla-check: ${opened.breached} breached, ${opened.approaching} approaching opened; ${reconciled} resolved; ${notified} violations in ${jobs} notification jobs`,
    );
    return result;
  }

  private async notify(now: Date): Promise<{ jobs: number; notified: number }> {
    let jobs = 0;
    let notified = 0;
    for (;;) {
      const pending = await this.repository.unnotified(OUTBOX_BATCH);
      for (const group of groups(pending)) {
        const data: SlaDeadlineNotificationJob = {
          kind: group[0].kind,
          projectId: group[0].projectId,
          checkedAt: now.toISOString(),
          violations: group.map((v) => ({
            violationId: v.id,
            findingId: v.findingId,
            productId: v.productId,
            severity: v.severity,
            title: v.title.slice(0, 500),
            dueAt: v.dueAt.toISOString(),
          })),
        };
        await addJob(this.notifications.queue, SLA_DEADLINE_NOTIFICATION, data, {
          jobId: jobIdOf(group),
          removeOnComplete: { age: NOTIFICATION_JOB_RETENTION_SECONDS.completed },
          removeOnFail: { age: NOTIFICATION_JOB_RETENTION_SECONDS.failed },
        });
        await this.repository.markNotified(
          group.map((v) => v.id),
          now,
        );
        jobs += 1;
        notified += group.length;
      }
      if (pending.length < OUTBOX_BATCH) return { jobs, notified };
    }
  }
}

/** Violations grouped by project and kind, in chunks of at most 500. */
function groups(violations: UnnotifiedViolation[]): UnnotifiedViolation[][] {
  const byKey = new Map<string, UnnotifiedViolation[]>();
  for (const v of violations) {
    const key = `${v.projectId}/${v.kind}`;
    const list = byKey.get(key);
    if (list) list.push(v);
    else byKey.set(key, [v]);
  }
  const out: UnnotifiedViolation[][] = [];
  for (const list of byKey.values()) {
    for (let i = 0; i < list.length; i += MAX_VIOLATIONS_PER_NOTIFICATION) {
      out.push(list.slice(i, i + MAX_VIOLATIONS_PER_NOTIFICATION));
    }
  }
  return out;
}

function jobIdOf(group: UnnotifiedViolation[]): string {
  const digest = createHash('sha256')
    .update(group.map((v) => v.id).join(','))
    .digest('hex')
    .slice(0, 32);
  return `sla-${group[0].kind}-${digest}`;
}
