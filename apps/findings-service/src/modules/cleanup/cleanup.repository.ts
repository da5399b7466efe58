import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ReportStatus } from '../reports/report-status';
import { deleteReportsSql } from '../reports/report-writes.sql';
import { deleteDueRefreshTokensSql } from '../users/refresh-token-cleanup.sql';
import {
  countDueNotificationRowsSql,
  deleteDueDeliveriesSql,
  deleteEmptyNotificationsSql,
} from '../notifications/notification-retention.sql';
import { deleteDueMailSendsSql } from '../mail/mail-sends-retention.sql';

/** The moments before which reports are due, per status (`pending` null: never). */
export interface ReportCutoffs {
  completed: Date;
  failed: Date;
  pending: Date | null;
}

/** A deleted (or, in a dry run, deletable) report: what the file removal needs. */
export interface DueReport {
  id: string;
  status: ReportStatus;
  storageKey: string;
  sizeBytes: number;
}

export interface DueReportCount {
  status: ReportStatus;
  count: number;
  bytes: number;
}

/**
 * Which reports are due: completed and failed ones by the time they finished (their upload
 * time when they never did), pending ones only when a pending retention is set, and only when
 * the row has not moved since the cut-off either (an ingestion still writing batches is left
 * alone).
 */
const DUE_REPORTS = `
  (status = 'completed' AND COALESCE(finished_at, created_at) < $1)
  OR (status = 'failed' AND COALESCE(finished_at, created_at) < $2)
  OR ($3::timestamptz IS NOT NULL AND status = 'pending' AND created_at < $3 AND updated_at < $3)`;

const UUID_PREFIX = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\./i;

/**
 * Set-based deletes of the cleanup, in batches: each statement picks at most `limit` due rows
 * (skipping rows another transaction holds) and deletes them — the statements of the tables'
 * owners (reports: report-writes.sql.ts, users: refresh-token-cleanup.sql.ts), with the
 * cleanup's choice of what is due. Findings keep their
 * `first_report_id`/`last_report_id` (no foreign key: the ids stay as history); the action log
 * is never touched.
 */
@Injectable()
export class CleanupRepository {
  constructor(private readonly dataSource: DataSource) {}

  async countDueReports(cutoffs: ReportCutoffs): Promise<DueReportCount[]> {
    const rows = (await this.dataSource.query(
      `SELECT status, count(*)::int AS count, COALESCE(sum(size_bytes), 0)::bigint AS bytes
         FROM reports WHERE ${DUE_REPORTS} GROUP BY status`,
      [cutoffs.completed, cutoffs.failed, cutoffs.pending],
    )) as { status: ReportStatus; count: number; bytes: string }[];
    return rows.map((r) => ({ status: r.status, count: r.count, bytes: Number(r.bytes) }));
  }

  /** Deletes up to `limit` due reports and returns them (their files are still there). */
  async deleteDueReports(cutoffs: ReportCutoffs, limit: number): Promise<DueReport[]> {
    const { sql, values } = deleteReportsSql(
      DUE_REPORTS,
      [cutoffs.completed, cutoffs.failed, cutoffs.pending],
      limit,
    );
    const rows = (await this.dataSource.query(sql, values)) as {
      id: string;
      status: ReportStatus;
      storage_key: string;
      size_bytes: string;
    }[];
    return rows.map((r) => ({
      id: r.id,
      status: r.status,
      storageKey: r.storage_key,
      sizeBytes: Number(r.size_bytes),
    }));
  }

  /**
   * Of `keys`, those a report row names. Keys the service generates start with the report id,
   * so they are looked up by primary key; any other name by `storage_key`.
   */
  async recordedKeys(keys: string[]): Promise<Set<string>> {
    const ids: string[] = [];
    const others: string[] = [];
    for (const key of keys) {
      const id = UUID_PREFIX.exec(key)?.[1];
      if (id) ids.push(id.toLowerCase());
      else others.push(key);
    }
    const found = new Set<string>();
    if (ids.length > 0) {
      const rows = (await this.dataSource.query(
        `SELECT storage_key FROM reports WHERE id = ANY($1::uuid[])`,
        [ids],
      )) as { storage_key: string }[];
      for (const r of rows) found.add(r.storage_key);
    }
    if (others.length > 0) {
      const rows = (await this.dataSource.query(
        `SELECT storage_key FROM reports WHERE storage_key = ANY($1::text[])`,
        [others],
      )) as { storage_key: string }[];
      for (const r of rows) found.add(r.storage_key);
    }
    return found;
  }

  /** Refresh tokens used (rotated), revoked, or expired, before `cutoff`. */
  async countDueRefreshTokens(cutoff: Date): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM refresh_tokens
        WHERE used_at < $1 OR revoked_at < $1 OR expires_at < $1`,
      [cutoff],
    )) as { n: number }[];
    return row.n;
  }

  /** Deletes up to `limit` of them; returns how many went. */
  async deleteDueRefreshTokens(cutoff: Date, limit: number): Promise<number> {
    const { sql, values } = deleteDueRefreshTokensSql(cutoff, limit);
    const [row] = (await this.dataSource.query(sql, values)) as { n: number }[];
    return row.n;
  }

  /** Records of sent notification e-mails created before `cutoff` (mail_sends). */
  async countDueMailSends(cutoff: Date): Promise<number> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM mail_sends WHERE created_at < $1`,
      [cutoff],
    )) as { n: number }[];
    return row.n;
  }

  /** Deletes up to `limit` of them; returns how many went. */
  async deleteDueMailSends(cutoff: Date, limit: number): Promise<number> {
    const { sql, values } = deleteDueMailSendsSql(cutoff, limit);
    const [row] = (await this.dataSource.query(sql, values)) as { n: number }[];
    return row.n;
  }

  /** Finished notification deliveries and emptied notifications due (dry run). */
  async countDueNotificationRows(
    done: Date,
    failed: Date,
  ): Promise<{ deliveries: number; notifications: number }> {
    const { sql, values } = countDueNotificationRowsSql(done, failed);
    const [row] = (await this.dataSource.query(sql, values)) as {
      deliveries: number;
      notifications: number;
    }[];
    return row;
  }

  async deleteDueDeliveries(done: Date, failed: Date, limit: number): Promise<number> {
    const { sql, values } = deleteDueDeliveriesSql(done, failed, limit);
    const [row] = (await this.dataSource.query(sql, values)) as { n: number }[];
    return row.n;
  }

  async deleteEmptyNotifications(cutoff: Date, limit: number): Promise<number> {
    const { sql, values } = deleteEmptyNotificationsSql(cutoff, limit);
    const [row] = (await this.dataSource.query(sql, values)) as { n: number }[];
    return row.n;
  }
}
