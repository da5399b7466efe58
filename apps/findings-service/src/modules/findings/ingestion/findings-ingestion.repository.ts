import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { lockProductForWrite } from '../product-write-lock';
import { STAGE_COLUMNS, StagedBatch } from './finding-row';

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

/** Per-connection temporary staging table; emptied by every commit. */
const STAGE = 'pg_temp.findings_ingest_stage';

/**
 * The staging table (created once per connection) and this transaction's settings, in one
 * round trip: the count query probes the primary key once per upserted row (never a hash join
 * over the table); no JIT (its compile time exceeds a batch's runtime); the commit does not wait
 * for the WAL flush. That is safe here: a database crash can only lose the last batches
 * together with their watermark (same transaction), which the retried job writes again; the
 * report's completion (a separate, synchronous commit) flushes every batch before it.
 */
const PREPARE_STAGE = `SET LOCAL client_min_messages = warning;
  CREATE TEMP TABLE IF NOT EXISTS findings_ingest_stage (
  ${STAGE_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')}) ON COMMIT DELETE ROWS;
  SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; SET LOCAL jit = off;
  SET LOCAL synchronous_commit = off`;

/** Staging columns, all copied into `findings` (score is cast to real on the way). */
const STAGED = STAGE_COLUMNS.map(([name]) => name).join(', ');

/**
 * One set-based statement per batch over the staged rows: new identities are inserted
 * (`new`), known ones get last seen, the latest scanner's extended fields and their `sources`
 * entry side by side (stored only when the row's columns do not imply it, see
 * finding-sources.ts: the first sighting stores `{}`, a same-content re-sighting by the same
 * scanner drops a stored entry, any other stores the previous scanner's implied entry and
 * the new one); `fixed` becomes `renewed`, with an automatic (`system`) entry in
 * the action log written by the same statement. The outer query reads the updated rows
 * by primary key with the statement's snapshot, i.e. as they were before the upsert (a NULL
 * key for inserted rows: no index descent), so the counts of renewed and updated need no
 * lookup by (product, identity), whose plan depends on the always stale statistics of the
 * product being ingested; `updated` skips findings this report already touched in an earlier
 * batch. No indexed column changes on a plain re-sighting (status only for fixed -> renewed),
 * so with free space on the page the update is HOT (no index maintenance).
 */
const UPSERT = `
WITH up AS (
  INSERT INTO findings AS f (${STAGED}, product_id, project_id, sla_days, sources,
    first_seen_at, last_seen_at, first_report_id, last_report_id)
  SELECT ${STAGED}, $1, $2,
    CASE severity WHEN 'CRITICAL' THEN $6::int WHEN 'HIGH' THEN $7::int WHEN 'MEDIUM' THEN $8::int
      WHEN 'LOW' THEN $9::int ELSE $10::int END,
    '{}'::jsonb, $3, $3, $4, $4
  FROM ${STAGE}
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
    service = COALESCE(f.service, EXCLUDED.service),
    component = COALESCE(f.component, EXCLUDED.component),
    component_version = COALESCE(f.component_version, EXCLUDED.component_version),
    sources = CASE
      WHEN f.scanner = EXCLUDED.scanner AND f.rule_id = EXCLUDED.rule_id
        AND f.cve IS NOT DISTINCT FROM EXCLUDED.cve AND f.score IS NOT DISTINCT FROM EXCLUDED.score
        AND f.description = EXCLUDED.description
      THEN f.sources - EXCLUDED.scanner::text
      ELSE CASE WHEN f.sources ? f.scanner THEN f.sources
          ELSE f.sources || jsonb_build_object(f.scanner, jsonb_build_object('scanner', f.scanner,
            'scanner_version', f.scanner_version,
            'scanned_at', to_char(f.last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'rule_id', f.rule_id, 'cve', f.cve, 'score', f.score, 'description', f.description))
        END || jsonb_build_object(EXCLUDED.scanner, jsonb_build_object('scanner', EXCLUDED.scanner,
          'scanner_version', EXCLUDED.scanner_version, 'scanned_at', $5::text,
          'rule_id', EXCLUDED.rule_id, 'cve', EXCLUDED.cve, 'score', EXCLUDED.score,
          'description', EXCLUDED.description))
    END,
    status = CASE WHEN f.status = 'fixed' THEN 'renewed' ELSE f.status END,
    status_changed_at = CASE WHEN f.status = 'fixed' THEN now() ELSE f.status_changed_at END,
    updated_at = now()
  RETURNING f.id, (xmax = 0) AS inserted
),
seen AS (
  SELECT up.id, up.inserted, old.status AS old_status, old.last_report_id AS old_report_id
    FROM up LEFT JOIN findings old
      ON old.id = CASE WHEN up.inserted THEN NULL ELSE up.id END
),
renewed_log AS (
  INSERT INTO finding_actions (finding_id, project_id, actor_type, actor_label, action,
    from_value, to_value)
  SELECT id, $2, 'system', 'ingestion', 'renewed', '{"status":"fixed"}'::jsonb,
    jsonb_build_object('status', 'renewed', 'report_id', $4::text)
    FROM seen WHERE old_status = 'fixed'
)
SELECT count(*) FILTER (WHERE inserted)::int AS new,
  count(*) FILTER (WHERE old_status = 'fixed')::int AS renewed,
  count(*) FILTER (WHERE old_status <> 'fixed' AND old_report_id IS DISTINCT FROM $4)::int
    AS updated
FROM seen`;

/**
 * The ingestion write path. Each batch is one transaction that holds the product (see
 * lockProductForWrite), locks the report row, checks
 * cancellation and the batch watermark, COPYs the batch into the staging table, upserts the
 * findings and advances the report's counters and watermark: a job that dies mid-report
 * resumes at the first unwritten batch and ends with the same findings and counts as an
 * uninterrupted run.
 */
@Injectable()
export class FindingsIngestionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  writeBatch(target: BatchTarget, meta: BatchMeta, batch: StagedBatch): Promise<BatchOutcome> {
    return this.dataSource.transaction(async (manager) => {
      // Product first, then the report: a product deletion (product FOR UPDATE, then its
      // reports by cascade) can never wait on a batch that waits on it.
      if (!(await lockProductForWrite(manager, target.productId))) return { kind: 'skipped' };
      const state = await lockReport(manager, target.reportId);
      if (!state || state.status !== 'pending') return { kind: 'skipped' };
      if (state.cancelled) return { kind: 'cancelled' };
      if (state.processed_batches !== meta.index) return { kind: 'skipped' };
      const counts =
        batch.rows === 0
          ? { new: 0, updated: 0, renewed: 0 }
          : await upsert(manager, target, batch);
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

/** The node-postgres client under the transaction's query runner. */
function rawClient(manager: EntityManager): PoolClient {
  const client = (manager.queryRunner as unknown as { databaseConnection?: PoolClient } | undefined)
    ?.databaseConnection;
  if (!client) throw new Error('ingestion batch without a connected query runner');
  return client;
}

/** COPY FROM STDIN of the batch into the (per-connection) staging table. */
async function stage(manager: EntityManager, batch: StagedBatch): Promise<void> {
  await manager.query(PREPARE_STAGE);
  const stream = rawClient(manager).query(copyFrom(`COPY ${STAGE} (${STAGED}) FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(batch.data);
  });
}

async function upsert(
  manager: EntityManager,
  target: BatchTarget,
  batch: StagedBatch,
): Promise<BatchCounts> {
  await stage(manager, batch);
  const { sla } = target;
  const result = (await manager.query(UPSERT, [
    target.productId,
    target.projectId,
    target.seenAt,
    target.reportId,
    target.seenAt.toISOString(),
    sla.CRITICAL,
    sla.HIGH,
    sla.MEDIUM,
    sla.LOW,
    sla.INFO,
  ])) as BatchCounts[];
  return result[0] ?? { new: 0, updated: 0, renewed: 0 };
}
