import type { EnvReader } from '@platform/config';

/** Report and refresh-token cleanup (worker, hourly, leader only). Ages in whole days/hours. */
export interface CleanupConfig {
  /** CLEANUP_RETENTION_COMPLETED_DAYS: completed reports older than this go (default 7). */
  completedDays: number;
  /** CLEANUP_RETENTION_FAILED_DAYS: failed reports (default 30). */
  failedDays: number;
  /** CLEANUP_RETENTION_PENDING_DAYS: pending reports; 0 = never deleted (default). */
  pendingDays: number;
  /** CLEANUP_RETENTION_ORPHAN_HOURS: stored files without a report record (default 24). */
  orphanHours: number;
  /** CLEANUP_DRY_RUN: only report what would be deleted. */
  dryRun: boolean;
  /** REFRESH_CLEANUP_RETENTION_DAYS: revoked (or expired) refresh tokens (default 30). */
  refreshTokenDays: number;
  /** CLEANUP_SCHEDULE as given: obsolete, only warned about at start. */
  obsoleteSchedule?: string;
}

const YEAR_OF_DAYS = 3650;

export function readCleanupConfig(r: EnvReader): CleanupConfig {
  return {
    completedDays: r.int('CLEANUP_RETENTION_COMPLETED_DAYS', 7, { min: 1, max: YEAR_OF_DAYS }),
    failedDays: r.int('CLEANUP_RETENTION_FAILED_DAYS', 30, { min: 1, max: YEAR_OF_DAYS }),
    pendingDays: r.int('CLEANUP_RETENTION_PENDING_DAYS', 0, { min: 0, max: YEAR_OF_DAYS }),
    orphanHours: r.int('CLEANUP_RETENTION_ORPHAN_HOURS', 24, { min: 1, max: 24 * YEAR_OF_DAYS }),
    dryRun: r.bool('CLEANUP_DRY_RUN', false),
    refreshTokenDays: r.int('REFRESH_CLEANUP_RETENTION_DAYS', 30, { min: 1, max: YEAR_OF_DAYS }),
    obsoleteSchedule: r.optionalString('CLEANUP_SCHEDULE'),
  };
}

/** The start-up warning for CLEANUP_SCHEDULE (the schedule is fixed: hourly). */
export function cleanupWarnings(config: CleanupConfig): string[] {
  if (config.obsoleteSchedule === undefined) return [];
  return [
    `CLEANUP_SCHEDULE="${config.obsoleteSchedule}" is obsolete and ignored: report cleanup runs hourly`,
  ];
}
