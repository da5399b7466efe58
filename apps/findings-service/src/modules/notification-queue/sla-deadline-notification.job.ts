import { isUUID } from 'class-validator';
import { defineJobContract } from '@platform/queue';

/**
 * The notification queue: jobs for the projects' notification channels, consumed by every
 * worker replica (modules/notifications, docs/findings-service/notifications.md): `sla-deadline`
 * (this file) and `deliver` (notification-deliver.job.ts).
 */
export const NOTIFICATION_QUEUE = 'notifications';

/** How long finished notification jobs stay in the queue (BullMQ removeOnComplete/Fail ages). */
export const NOTIFICATION_JOB_RETENTION_SECONDS = { completed: 24 * 3600, failed: 7 * 24 * 3600 };

/** Violations one job carries at most (one job per project, kind and chunk, never per finding). */
export const MAX_VIOLATIONS_PER_NOTIFICATION = 500;

export const SLA_NOTIFICATION_KINDS = ['approaching', 'breached'] as const;
export type SlaNotificationKind = (typeof SLA_NOTIFICATION_KINDS)[number];

export interface SlaViolationNotice {
  violationId: string;
  findingId: string;
  productId: string;
  severity: string;
  /** The finding's title (empty when it was deleted meanwhile). */
  title: string;
  /** The deadline (ISO 8601). */
  dueAt: string;
}

/** The hourly deadline check's notification: one project, one kind, some violations. */
export interface SlaDeadlineNotificationJob {
  kind: SlaNotificationKind;
  projectId: string;
  /** When the check that opened the violations ran (ISO 8601). */
  checkedAt: string;
  violations: SlaViolationNotice[];
}

const isIso = (v: unknown): v is string =>
  typeof v === 'string' && v.length <= 40 && !Number.isNaN(Date.parse(v));
const isId = (v: unknown): v is string => typeof v === 'string' && isUUID(v, 'loose');

function notice(data: unknown, i: number): SlaViolationNotice {
  if (typeof data !== 'object' || data === null) throw new Error(`violations[${i}]: not an object`);
  const { violationId, findingId, productId, severity, title, dueAt } = data as Record<
    string,
    unknown
  >;
  if (!isId(violationId) || !isId(findingId) || !isId(productId)) {
    throw new Error(`violations[${i}]: violationId, findingId and productId must be UUIDs`);
  }
  if (typeof severity !== 'string' || typeof title !== 'string' || !isIso(dueAt)) {
    throw new Error(`violations[${i}]: severity, title (strings) and dueAt (ISO date) required`);
  }
  return { violationId, findingId, productId, severity, title, dueAt };
}

export const SLA_DEADLINE_NOTIFICATION = defineJobContract<SlaDeadlineNotificationJob>(
  'sla-deadline',
  (data) => {
    if (typeof data !== 'object' || data === null) throw new Error('expected an object');
    const { kind, projectId, checkedAt, violations } = data as Record<string, unknown>;
    if (!SLA_NOTIFICATION_KINDS.includes(kind as SlaNotificationKind)) {
      throw new Error(`kind must be one of ${SLA_NOTIFICATION_KINDS.join(', ')}`);
    }
    if (!isId(projectId)) throw new Error('projectId must be a UUID');
    if (!isIso(checkedAt)) throw new Error('checkedAt must be an ISO date');
    if (
      !Array.isArray(violations) ||
      violations.length === 0 ||
      violations.length > MAX_VIOLATIONS_PER_NOTIFICATION
    ) {
      throw new Error(`violations must hold 1 to ${MAX_VIOLATIONS_PER_NOTIFICATION} entries`);
    }
    return {
      kind: kind as SlaNotificationKind,
      projectId,
      checkedAt,
      violations: violations.map(notice),
    };
  },
);
