import { isUUID } from 'class-validator';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { PoolClient } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { IgnoredValues, ResultWarnings } from '@platform/report-parsing';
import { advanceReportSql } from '../../reports/report-writes.sql';
import { lockProductForWrite } from '../product-write-lock';
import { pgText, StagedBatch, type StagedFacts } from './finding-row';
import {
  PREPARE_STAGE,
  RESIGHTED_STAGE,
  STAGE,
  STAGED,
  TOUCH,
  UPSERT,
} from './findings-bulk-write.sql';
import { redirectMergedIdentities } from './merged-identities';

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
  /**
   * The project's enabled suppression rules, read once per job (modules/suppression): per
   * batch, the upsert that applies those its rows can meet to inserted findings and its
   * parameters after the ten of UPSERT (undefined: the plain statement).
   */
  suppression?: BatchSuppression;
}

/** The suppression rules' upsert for a batch, given what its rows hold (all rules without facts). */
export interface BatchSuppression {
  forBatch(facts: StagedFacts | undefined): { upsert: string; params: unknown[] } | undefined;
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
  revision: string | null;
  /** Results skipped since the previous batch (not stored), per warning code. */
  skipped?: ResultWarnings;
  /** Findings of the batch stored without a value of theirs, per code (codes disjoint). */
  ignored?: IgnoredValues;
}

/**
 * Unchanged re-sightings of a batch (`finding_id \t content_digest` lines) and how to get
 * full rows for those whose finding changed since the memo was read.
 */
export interface ResightedBatch {
  staged: StagedBatch;
  normalizeAfterAll(findingIds: string[]): Promise<StagedBatch>;
}

export type BatchOutcome =
  { kind: 'written'; counts: BatchCounts } | { kind: 'skipped' } | { kind: 'cancelled' };

/**
 * The ingestion write path. Each batch is one transaction that holds the product (see
 * lockProductForWrite), locks the report row, checks
 * cancellation and the batch watermark, COPYs the batch into the staging table, upserts the
 * findings and advances the report's counters and watermark: a job that dies mid-report
 * resumes at the first unwritten batch and ends with the same findings and counts as an
 * uninterrupted run.
 */
@Injectable()
export class FindingsBulkWriteRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  writeBatch(
    target: BatchTarget,
    meta: BatchMeta,
    batch: StagedBatch,
    resighted?: ResightedBatch,
  ): Promise<BatchOutcome> {
    return this.dataSource.transaction(async (manager) => {
      // Product first, then the report: a product deletion (product FOR UPDATE, then its
      // reports by cascade) can never wait on a batch that waits on it.
      if (!(await lockProductForWrite(manager, target.productId))) return { kind: 'skipped' };
      const state = await lockReport(manager, target.reportId);
      if (!state || state.status !== 'pending') return { kind: 'skipped' };
      if (state.cancelled) return { kind: 'cancelled' };
      if (state.processed_batches !== meta.index) return { kind: 'skipped' };
      const counts = { new: 0, updated: 0, renewed: 0 };
      const resightings = resighted?.staged.rows ?? 0;
      if (batch.rows > 0 || resightings > 0) await manager.query(PREPARE_STAGE);
      if (resighted && resightings > 0) {
        const touched = await touch(manager, target, meta, resighted.staged);
        addCounts(counts, touched);
        if (touched.missing.length > 0) {
          // Changed since the memo was read: upserted like any other result (a statement of
          // its own: the batch may hold another result with the same identity).
          const rows = await resighted.normalizeAfterAll(touched.missing);
          addCounts(counts, await upsert(manager, target, rows));
          await manager.query(`TRUNCATE ${STAGE}`);
        }
      }
      if (batch.rows > 0) addCounts(counts, await upsert(manager, target, batch));
      const advance = advanceReportSql(target.reportId, {
        results: meta.results,
        new: counts.new,
        updated: counts.updated,
        renewed: counts.renewed,
        format: meta.format,
        scanner: pgText(meta.scanner.slice(0, 200)),
        scannerVersion:
          meta.scannerVersion === null ? null : pgText(meta.scannerVersion.slice(0, 100)),
        warnings: warningsJson(meta),
      });
      await manager.query(advance.sql, advance.values);
      return { kind: 'written', counts };
    });
  }

  /**
   * The product's findings by content digest of their last sighting (COPY text `id \t digest`
   * lines) for a ResultMemo: only findings whose `sources` has no stored entry for their
   * latest scanner (see TOUCH), merged findings left out (their results go through the upsert,
   * which re-sights the survivor: merged-identities.ts). Undefined when the product has more
   * than `maxRows` of them (reading them would cost more than the report can save).
   */
  async loadResultMemo(productId: string, maxRows: number): Promise<Buffer | undefined> {
    if (!isUUID(productId, 'loose') || !Number.isSafeInteger(maxRows) || maxRows < 1)
      return undefined;
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      const stream = rawClient(runner.manager).query(
        copyTo(`COPY (SELECT id, content_digest FROM findings
          WHERE product_id = '${productId}' AND content_digest IS NOT NULL
            AND NOT (sources ? scanner::text) AND merged_into_id IS NULL LIMIT ${maxRows + 1}) TO STDOUT`),
      );
      const chunks: Buffer[] = [];
      let lines = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) lines += 1;
      }
      return lines > maxRows ? undefined : Buffer.concat(chunks);
    } finally {
      await runner.release();
    }
  }
}

/** The batch's skipped results and ignored values, one JSON object (their codes are disjoint). */
function warningsJson(meta: BatchMeta): string | null {
  const all = { ...meta.skipped, ...meta.ignored };
  return Object.keys(all).length > 0 ? JSON.stringify(all) : null;
}

function addCounts(into: BatchCounts, add: Partial<BatchCounts>): void {
  into.new += add.new ?? 0;
  into.updated += add.updated ?? 0;
  into.renewed += add.renewed ?? 0;
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

/** COPY FROM STDIN of COPY text into one of the (per-connection) staging tables. */
async function copyInto(
  manager: EntityManager,
  table: string,
  columns: string,
  data: Buffer,
): Promise<void> {
  const stream = rawClient(manager).query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(data);
  });
}

async function touch(
  manager: EntityManager,
  target: BatchTarget,
  meta: BatchMeta,
  staged: StagedBatch,
): Promise<{ updated: number; renewed: number; missing: string[] }> {
  await copyInto(manager, RESIGHTED_STAGE, 'finding_id, content_digest', staged.data);
  const rows = (await manager.query(TOUCH, [
    target.productId,
    target.projectId,
    target.seenAt,
    target.reportId,
    meta.scannerVersion === null ? null : pgText(meta.scannerVersion),
    meta.revision === null ? null : pgText(meta.revision),
  ])) as { updated: number; renewed: number; missing: string[] }[];
  return rows[0] ?? { updated: 0, renewed: 0, missing: [] };
}

async function upsert(
  manager: EntityManager,
  target: BatchTarget,
  batch: StagedBatch,
): Promise<BatchCounts> {
  await copyInto(manager, STAGE, STAGED, batch.data);
  await redirectMergedIdentities(manager, target.productId);
  const { sla } = target;
  const suppression = target.suppression?.forBatch(batch.facts);
  const sql = suppression?.upsert ?? UPSERT;
  const result = (await manager.query(sql, [
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
    ...(suppression?.params ?? []),
  ])) as BatchCounts[];
  return result[0] ?? { new: 0, updated: 0, renewed: 0 };
}
