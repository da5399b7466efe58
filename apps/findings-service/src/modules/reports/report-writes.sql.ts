/**
 * Writes of the `reports` table that other modules make (the worker's ingestion, the cleanup),
 * as statements the caller runs on its own connection or in its own transaction:
 * `manager.query(sql, values)`. The reports module owns the table; nothing else writes it.
 */
import type { ReportFailureCode, ReportFailureDetails } from './report-status';

/** One statement and its parameters. */
export interface SqlStatement {
  sql: string;
  values: unknown[];
}

/** The ingestion of a report started (the first time only). */
export function markReportStartedSql(reportId: string): SqlStatement {
  return {
    sql: `UPDATE reports SET started_at = COALESCE(started_at, now()), updated_at = now() WHERE id = $1`,
    values: [reportId],
  };
}

/**
 * A pending report completes unless cancellation was requested, storing what each of its runs
 * looked at (`coverage`, JSON text) in the same statement; `RETURNING id` (no row: not
 * completed).
 */
export function completeReportSql(reportId: string, coverageJson: string): SqlStatement {
  return {
    sql: `UPDATE reports SET status = 'completed', finished_at = now(), updated_at = now(),
              format = COALESCE(format, requested_format), coverage = $2::jsonb
        WHERE id = $1 AND status = 'pending' AND cancel_requested_at IS NULL
        RETURNING id`,
    values: [reportId, coverageJson],
  };
}

/** A pending report fails with a stable code (and the values its message shows). */
export function failReportSql(
  reportId: string,
  code: ReportFailureCode,
  details?: ReportFailureDetails,
): SqlStatement {
  return {
    sql: `UPDATE reports SET status = 'failed', failure_code = $2, failure_details = $3,
              finished_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'pending'`,
    values: [reportId, code, details ? JSON.stringify(details) : null],
  };
}

/** What one written batch adds to its report. */
export interface ReportBatchProgress {
  results: number;
  new: number;
  updated: number;
  renewed: number;
  format: string | null;
  scanner: string;
  scannerVersion: string | null;
  /** Skipped results and ignored values per warning code (a JSON object), or null. */
  warnings: string | null;
}

/**
 * The report's watermark and counters after a batch, in the batch's transaction: counts, the
 * first format and scanner seen, and the warning counts added to `warnings`.
 */
export function advanceReportSql(reportId: string, batch: ReportBatchProgress): SqlStatement {
  return {
    sql: `
UPDATE reports SET processed_batches = processed_batches + 1,
  results_total = results_total + $2, new_count = new_count + $3,
  updated_count = updated_count + $4, renewed_count = renewed_count + $5,
  format = COALESCE(format, $6), scanner = COALESCE(scanner, $7),
  scanner_version = COALESCE(scanner_version, $8),
  warnings = CASE WHEN $9::jsonb IS NULL THEN warnings ELSE (
    SELECT jsonb_object_agg(code, total) FROM (
      SELECT code, sum(n::int) AS total
        FROM (SELECT * FROM jsonb_each_text(warnings)
              UNION ALL SELECT * FROM jsonb_each_text($9::jsonb)) AS w(code, n)
       GROUP BY code) AS summed) END,
  updated_at = now()
WHERE id = $1`,
    values: [
      reportId,
      batch.results,
      batch.new,
      batch.updated,
      batch.renewed,
      batch.format,
      batch.scanner,
      batch.scannerVersion,
      batch.warnings,
    ],
  };
}

/**
 * Deletes at most `limit` reports that `due` selects (conditions over `reports` with the
 * caller's parameters `values`; `limit` is added after them), oldest first, skipping rows
 * another transaction holds; returns `id, status, storage_key, size_bytes` of each.
 */
export function deleteReportsSql(due: string, values: unknown[], limit: number): SqlStatement {
  return {
    sql: `WITH due AS (
         SELECT id FROM reports WHERE ${due}
          ORDER BY created_at LIMIT $${values.length + 1} FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM reports r USING due WHERE r.id = due.id
         RETURNING r.id, r.status, r.storage_key, r.size_bytes
       )
       SELECT id, status, storage_key, size_bytes::bigint AS size_bytes FROM gone`,
    values: [...values, limit],
  };
}
