import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SlaDays } from '../findings/bulk-write/findings-bulk-write.repository';
import { jsonbText } from '../findings/bulk-write/finding-row';
import type { ReportRunCoverage } from '../reports/report-coverage';
import {
  completeReportSql,
  failReportSql,
  markReportStartedSql,
} from '../reports/report-writes.sql';
import type {
  ReportFailureCode,
  ReportFailureDetails,
  ReportFormat,
  ReportStatus,
} from '../reports/report-status';

/** What the worker needs to ingest one report. */
export interface IngestionContext {
  reportId: string;
  productId: string;
  projectId: string;
  status: ReportStatus;
  storageKey: string;
  requestedFormat: ReportFormat | null;
  engine: string | null;
  engineVersion: string | null;
  commitId: string | null;
  processedBatches: number;
  /** Stored size of the report file. */
  sizeBytes: number;
  createdAt: Date;
  sla: SlaDays;
}

interface ContextRow {
  id: string;
  product_id: string;
  project_id: string;
  status: ReportStatus;
  storage_key: string;
  requested_format: ReportFormat | null;
  engine: string | null;
  engine_version: string | null;
  commit_id: string | null;
  processed_batches: number;
  size_bytes: string;
  created_at: Date;
  sla_critical_days: number | null;
  sla_high_days: number | null;
  sla_medium_days: number | null;
  sla_low_days: number | null;
  sla_info_days: number | null;
}

/**
 * Report state transitions made by the worker, through the statements of the reports module
 * (report-writes.sql.ts; the per-batch write is in the findings repo).
 */
@Injectable()
export class IngestionReportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async load(reportId: string): Promise<IngestionContext | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT r.id, r.product_id, r.project_id, r.status, r.storage_key, r.requested_format,
              r.engine, r.engine_version, r.commit_id, r.processed_batches, r.size_bytes, r.created_at,
              p.sla_critical_days, p.sla_high_days, p.sla_medium_days, p.sla_low_days,
              p.sla_info_days
         FROM reports r JOIN projects p ON p.id = r.project_id
        WHERE r.id = $1`,
      [reportId],
    )) as ContextRow[];
    const row = rows[0];
    if (!row) return undefined;
    return {
      reportId: row.id,
      productId: row.product_id,
      projectId: row.project_id,
      status: row.status,
      storageKey: row.storage_key,
      requestedFormat: row.requested_format,
      engine: row.engine,
      engineVersion: row.engine_version,
      commitId: row.commit_id,
      processedBatches: row.processed_batches,
      sizeBytes: Number(row.size_bytes),
      createdAt: row.created_at,
      sla: {
        CRITICAL: row.sla_critical_days,
        HIGH: row.sla_high_days,
        MEDIUM: row.sla_medium_days,
        LOW: row.sla_low_days,
        INFO: row.sla_info_days,
      },
    };
  }

  /**
   * Pending reports older than `olderThanSeconds` that nobody cancelled, oldest first: the
   * candidates of the stranded-report check (stranded-reports.ts).
   */
  async pendingOlderThan(
    olderThanSeconds: number,
    limit: number,
  ): Promise<{ id: string; productId: string; projectId: string }[]> {
    const rows = (await this.dataSource.query(
      `SELECT id, product_id, project_id FROM reports
        WHERE status = 'pending' AND cancel_requested_at IS NULL
          AND created_at < now() - make_interval(secs => $1)
        ORDER BY created_at LIMIT $2`,
      [olderThanSeconds, limit],
    )) as { id: string; product_id: string; project_id: string }[];
    return rows.map((r) => ({ id: r.id, productId: r.product_id, projectId: r.project_id }));
  }

  async markStarted(reportId: string): Promise<void> {
    const started = markReportStartedSql(reportId);
    await this.dataSource.query(started.sql, started.values);
  }

  /**
   * Completes a pending report unless cancellation was requested (then: false), storing what
   * each of its runs looked at (`coverage`) in the same statement.
   */
  async complete(reportId: string, coverage: ReportRunCoverage[]): Promise<boolean> {
    const completed = completeReportSql(reportId, jsonbText(coverage));
    const result = (await this.dataSource.query(completed.sql, completed.values)) as [
      unknown[],
      number,
    ];
    return result[1] > 0;
  }

  /** A pending report fails with a stable code (and the values its message shows). */
  async fail(
    reportId: string,
    code: ReportFailureCode,
    details?: ReportFailureDetails,
  ): Promise<void> {
    const failed = failReportSql(reportId, code, details);
    await this.dataSource.query(failed.sql, failed.values);
  }
}
