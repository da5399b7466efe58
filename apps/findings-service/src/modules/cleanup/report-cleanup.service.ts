import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { loggableError } from '@platform/logging';
import { Tracing } from '@platform/tracing';
import { Clock } from '../../app/clock';
import { cleanupWarnings, type CleanupConfig } from '../../app/config/cleanup-config';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { MAIL_SENDS_RETENTION_DAYS } from '../mail/mail-sends-retention.sql';
import { REPORT_STORAGE, type ReportStorage, type StoredObject } from '../storage/report-storage';
import { CleanupRepository, type ReportCutoffs } from './cleanup.repository';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Rows per delete statement, files looked up per query. */
const REPORT_BATCH = 500;
const TOKEN_BATCH = 5_000;
const ORPHAN_BATCH = 500;
/** Files removed at a time. */
const FILE_CONCURRENCY = 16;

/** What one cleanup run removed (or, in a dry run, would remove). */
export interface CleanupSummary {
  dryRun: boolean;
  reports: { completed: number; failed: number; pending: number };
  /** Bytes of the reports' files (as recorded at upload). */
  reportBytes: number;
  /** Files of deleted reports removed (a failed removal is left to the orphan sweep). */
  reportFiles: number;
  /** Files without a report row, older than the orphan retention. */
  orphanFiles: number;
  orphanBytes: number;
  refreshTokens: number;
  /** mail_sends rows older than MAIL_SENDS_RETENTION_DAYS (docs/findings-service/mail.md). */
  mailSends: number;
  /** Finished notification deliveries and notifications with none left (notifications.md). */
  notificationDeliveries: number;
  notifications: number;
}

/**
 * The hourly cleanup of the leading worker: reports past their retention (completed, failed,
 * pending when CLEANUP_RETENTION_PENDING_DAYS > 0) with their files, files in report storage
 * without a record (older than CLEANUP_RETENTION_ORPHAN_HOURS), and refresh tokens revoked or
 * expired more than REFRESH_CLEANUP_RETENTION_DAYS ago, and mail_sends records older than
 * MAIL_SENDS_RETENTION_DAYS. Never the action log.
 *
 * Order: a batch of report rows is deleted first (one statement), then their files. A crash in
 * between leaves files without a record, which the orphan sweep removes on a later run; it can
 * never leave a record — pending or not — pointing at a file that is gone.
 */
@Injectable()
export class ReportCleanupService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Cleanup');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    @Inject(REPORT_STORAGE) private readonly storage: ReportStorage,
    private readonly repository: CleanupRepository,
    private readonly clock: Clock,
    private readonly tracing: Tracing,
  ) {}

  onApplicationBootstrap(): void {
    for (const warning of cleanupWarnings(this.config.cleanup)) this.logger.warn(warning);
  }

  /** One run with the configured retention (tests pass other settings). */
  run(settings: CleanupConfig = this.config.cleanup): Promise<CleanupSummary> {
    return this.tracing.inSpan('report-cleanup', { 'cleanup.dry_run': settings.dryRun }, () =>
      this.runNow(settings),
    );
  }

  private async runNow(settings: CleanupConfig): Promise<CleanupSummary> {
    const now = this.clock.now().getTime();
    const cutoffs: ReportCutoffs = {
      completed: new Date(now - settings.completedDays * DAY_MS),
      failed: new Date(now - settings.failedDays * DAY_MS),
      pending: settings.pendingDays > 0 ? new Date(now - settings.pendingDays * DAY_MS) : null,
    };
    const summary: CleanupSummary = {
      dryRun: settings.dryRun,
      reports: { completed: 0, failed: 0, pending: 0 },
      reportBytes: 0,
      reportFiles: 0,
      orphanFiles: 0,
      orphanBytes: 0,
      refreshTokens: 0,
      mailSends: 0,
      notificationDeliveries: 0,
      notifications: 0,
    };
    await this.reports(cutoffs, summary);
    await this.orphans(new Date(now - settings.orphanHours * HOUR_MS), summary);
    await this.refreshTokens(new Date(now - settings.refreshTokenDays * DAY_MS), summary);
    await this.mailSends(new Date(now - MAIL_SENDS_RETENTION_DAYS * DAY_MS), summary);
    const { retentionDeliveredDays, retentionFailedDays } = this.config.notifications;
    await this.notifications(
      new Date(now - retentionDeliveredDays * DAY_MS),
      new Date(now - retentionFailedDays * DAY_MS),
      summary,
    );
    this.logger.log(describe(summary));
    return summary;
  }

  private async reports(cutoffs: ReportCutoffs, summary: CleanupSummary): Promise<void> {
    if (summary.dryRun) {
      for (const due of await this.repository.countDueReports(cutoffs)) {
        summary.reports[due.status] += due.count;
        summary.reportBytes += due.bytes;
      }
      return;
    }
    for (;;) {
      const gone = await this.repository.deleteDueReports(cutoffs, REPORT_BATCH);
      for (const report of gone) {
        summary.reports[report.status] += 1;
        summary.reportBytes += report.sizeBytes;
      }
      summary.reportFiles += await this.removeFiles(gone.map((r) => r.storageKey));
      if (gone.length < REPORT_BATCH) return;
    }
  }

  private async orphans(cutoff: Date, summary: CleanupSummary): Promise<void> {
    let batch: StoredObject[] = [];
    const sweep = async () => {
      const recorded = await this.repository.recordedKeys(batch.map((o) => o.key));
      const orphans = batch.filter((o) => !recorded.has(o.key));
      batch = [];
      summary.orphanBytes += orphans.reduce((sum, o) => sum + o.sizeBytes, 0);
      summary.orphanFiles += summary.dryRun
        ? orphans.length
        : await this.removeFiles(orphans.map((o) => o.key));
    };
    for await (const object of this.storage.list()) {
      if (object.modifiedAt >= cutoff) continue;
      batch.push(object);
      if (batch.length >= ORPHAN_BATCH) await sweep();
    }
    if (batch.length > 0) await sweep();
  }

  private async refreshTokens(cutoff: Date, summary: CleanupSummary): Promise<void> {
    if (summary.dryRun) {
      summary.refreshTokens = await this.repository.countDueRefreshTokens(cutoff);
      return;
    }
    for (;;) {
      const gone = await this.repository.deleteDueRefreshTokens(cutoff, TOKEN_BATCH);
      summary.refreshTokens += gone;
      if (gone < TOKEN_BATCH) return;
    }
  }

  private async notifications(done: Date, failed: Date, summary: CleanupSummary): Promise<void> {
    if (summary.dryRun) {
      const due = await this.repository.countDueNotificationRows(done, failed);
      summary.notificationDeliveries = due.deliveries;
      summary.notifications = due.notifications;
      return;
    }
    for (;;) {
      const gone = await this.repository.deleteDueDeliveries(done, failed, TOKEN_BATCH);
      summary.notificationDeliveries += gone;
      if (gone < TOKEN_BATCH) break;
    }
    for (;;) {
      const gone = await this.repository.deleteEmptyNotifications(done, TOKEN_BATCH);
      summary.notifications += gone;
      if (gone < TOKEN_BATCH) return;
    }
  }

  private async mailSends(cutoff: Date, summary: CleanupSummary): Promise<void> {
    if (summary.dryRun) {
      summary.mailSends = await this.repository.countDueMailSends(cutoff);
      return;
    }
    for (;;) {
      const gone = await this.repository.deleteDueMailSends(cutoff, TOKEN_BATCH);
      summary.mailSends += gone;
      if (gone < TOKEN_BATCH) return;
    }
  }

  /** Removes the files; returns how many went. A failure is logged and left for the sweep. */
  private async removeFiles(keys: string[]): Promise<number> {
    let removed = 0;
    for (let i = 0; i < keys.length; i += FILE_CONCURRENCY) {
      const results = await Promise.allSettled(
        keys.slice(i, i + FILE_CONCURRENCY).map((key) => this.storage.delete(key)),
      );
      for (const result of results) {
        if (result.status === 'fulfilled') removed += 1;
        else
          this.logger.warn(
            `report file not removed (the orphan sweep retries): ${loggableError(result.reason).message}`,
          );
      }
    }
    return removed;
  }
}

function describe(s: CleanupSummary): string {
  const reports = s.reports.completed + s.reports.failed + s.reports.pending;
  const detail = `completed ${s.reports.completed}, failed ${s.reports.failed}, pending ${s.reports.pending}`;
  if (s.dryRun) {
    return (
      `report cleanup dry run (CLEANUP_DRY_RUN, nothing deleted): would delete ${reports} reports ` +
      `(${detail}; ${s.reportBytes} bytes), ${s.orphanFiles} orphan files (${s.orphanBytes} bytes), ` +
      `${s.refreshTokens} refresh tokens, ${s.mailSends} mail send records, ${s.notificationDeliveries} notification deliveries, ${s.notifications} notifications`
    );
  }
  return (
    `report cleanup: deleted ${reports} reports (${detail}) with ${s.reportFiles} files, ` +
    `${s.orphanFiles} orphan files, ${s.refreshTokens} refresh tokens, ${s.mailSends} mail send records, ${s.notificationDeliveries} notification deliveries, ${s.notifications} notifications`
  );
}
