import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { FindingRow } from './finding-row';

/** Remediation days per severity from the project settings (null: no deadline). */
export type SlaDays = Record<'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO', number | null>;

/** Where a batch lands and what the report says about itself. */
export interface BatchTarget {
  reportId: string;
  productId: string;
  projectId: string;
  /** The report's upload time: last seen / scan time of every finding (same on a retry). */
  seenAt: Date;
  sla: SlaDays;
}

export interface BatchCounts {
  new: number;
  updated: number;
  renewed: number;
}

export interface BatchMeta {
  index: number;
  /** Results of the batch before duplicates were folded. */
  results: number;
  format: string;
  scanner: string;
  scannerVersion: string | null;
}

export type BatchOutcome =
  { kind: 'written'; counts: BatchCounts } | { kind: 'skipped' } | { kind: 'cancelled' };

const COLUMNS = `identity_hash character(64), identity_kind text, rule_id text, rule_name text,
  title text, description text, severity text, baseline_state text, kind text,
  suppressed boolean, host text, ip text, port integer, protocol text, service text, url text,
  file_path text, start_line integer, end_line integer, snippet text, logical_location text,
  cve text, cwe text[], report_tags text[], component text, component_version text,
  score real, scanner text, scanner_version text, revision text, fingerprints jsonb,
  properties jsonb, source jsonb`;

const COPIED = `identity_hash, identity_kind, rule_id, rule_name, title, description, severity,
  baseline_state, kind, suppressed, host, ip, port, protocol, service, url, file_path,
  start_line, end_line, snippet, logical_location, cve, cwe, report_tags, component,
  component_version, score, scanner, scanner_version, revision, fingerprints, properties`;

/**
 * One set-based statement per batch: new identities are inserted (`new`), known ones get last
 * seen, the latest scanner's extended fields and their `sources` entry merged side by side;
 * `fixed` becomes `renewed`. `prev` reads the matching rows as they were before the statement
 * (same snapshot): every one of them is updated by the statement, so the counts of updated and
 * renewed come from `prev` alone (no join with the RETURNING rows), skipping findings this
 * report already touched in an earlier batch.
 */
const UPSERT = `
WITH input AS (SELECT * FROM json_to_recordset($1::json) AS t(${COLUMNS})),
prev AS MATERIALIZED (
  SELECT f.status, f.last_report_id
    FROM input i JOIN findings f ON f.product_id = $2 AND f.identity_hash = i.identity_hash
),
up AS (
  INSERT INTO findings AS f (product_id, project_id, ${COPIED}, sla_days, sources,
    first_seen_at, last_seen_at, first_report_id, last_report_id)
  SELECT $2, $3, ${COPIED},
    CASE severity WHEN 'CRITICAL' THEN $6::int WHEN 'HIGH' THEN $7::int WHEN 'MEDIUM' THEN $8::int
      WHEN 'LOW' THEN $9::int ELSE $10::int END,
    jsonb_build_object(scanner, source), $4, $4, $5, $5
  FROM input
  ON CONFLICT (product_id, identity_hash) DO UPDATE SET
    last_seen_at = GREATEST(f.last_seen_at, EXCLUDED.last_seen_at),
    last_report_id = EXCLUDED.last_report_id,
    scanner = EXCLUDED.scanner,
    scanner_version = EXCLUDED.scanner_version,
    revision = COALESCE(EXCLUDED.revision, f.revision),
    baseline_state = EXCLUDED.baseline_state,
    suppressed = EXCLUDED.suppressed,
    kind = EXCLUDED.kind,
    fingerprints = EXCLUDED.fingerprints,
    sources = f.sources || EXCLUDED.sources,
    status = CASE WHEN f.status = 'fixed' THEN 'renewed' ELSE f.status END,
    status_changed_at = CASE WHEN f.status = 'fixed' THEN now() ELSE f.status_changed_at END,
    updated_at = now()
  RETURNING (xmax = 0) AS inserted
)
SELECT
  (SELECT count(*) FROM up WHERE inserted)::int AS new,
  (SELECT count(*) FROM prev WHERE status = 'fixed')::int AS renewed,
  (SELECT count(*) FROM prev WHERE status <> 'fixed'
     AND last_report_id IS DISTINCT FROM $5)::int AS updated`;

/**
 * The ingestion write path. Each batch is one transaction that locks the report row, checks
 * cancellation and the batch watermark, upserts the findings and advances the report's
 * counters and watermark: a job that dies mid-report resumes at the first unwritten batch and
 * ends with the same findings and counts as an uninterrupted run.
 */
@Injectable()
export class FindingsIngestionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  writeBatch(target: BatchTarget, meta: BatchMeta, rows: FindingRow[]): Promise<BatchOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const state = await lockReport(manager, target.reportId);
      if (!state || state.status !== 'pending') return { kind: 'skipped' };
      if (state.cancelled) return { kind: 'cancelled' };
      if (state.processed_batches !== meta.index) return { kind: 'skipped' };
      const counts =
        rows.length === 0
          ? { new: 0, updated: 0, renewed: 0 }
          : await upsert(manager, target, rows);
      await manager.query(
        `UPDATE reports SET processed_batches = processed_batches + 1,
           results_total = results_total + $2, new_count = new_count + $3,
           updated_count = updated_count + $4, renewed_count = renewed_count + $5,
           format = COALESCE(format, $6), scanner = COALESCE(scanner, $7),
           scanner_version = COALESCE(scanner_version, $8), updated_at = now()
         WHERE id = $1`,
        [
          target.reportId,
          meta.results,
          counts.new,
          counts.updated,
          counts.renewed,
          meta.format,
          meta.scanner.slice(0, 200),
          meta.scannerVersion?.slice(0, 100) ?? null,
        ],
      );
      return { kind: 'written', counts };
    });
  }
}

async function lockReport(
  manager: EntityManager,
  reportId: string,
): Promise<{ status: string; processed_batches: number; cancelled: boolean } | undefined> {
  const rows = (await manager.query(
    `SELECT status, processed_batches, cancel_requested_at IS NOT NULL AS cancelled
       FROM reports WHERE id = $1 FOR UPDATE`,
    [reportId],
  )) as { status: string; processed_batches: number; cancelled: boolean }[];
  return rows[0];
}

async function upsert(
  manager: EntityManager,
  target: BatchTarget,
  rows: FindingRow[],
): Promise<BatchCounts> {
  const { sla } = target;
  const result = (await manager.query(UPSERT, [
    JSON.stringify(rows),
    target.productId,
    target.projectId,
    target.seenAt,
    target.reportId,
    sla.CRITICAL,
    sla.HIGH,
    sla.MEDIUM,
    sla.LOW,
    sla.INFO,
  ])) as BatchCounts[];
  return result[0] ?? { new: 0, updated: 0, renewed: 0 };
}
