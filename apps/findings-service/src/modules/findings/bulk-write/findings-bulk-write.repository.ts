import { isUUID } from 'class-validator';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { to as copyTo } from 'pg-copy-streams';
import { advanceReportSql } from '../../reports/report-writes.sql';
import { openBatch, preparedQuery } from './batch-round-trips';
import { rawClient, stage, stageResighted, touch, upsert } from './batch-writes';
import { pgText, StagedBatch } from './finding-row';
import { PREPARE_STAGE, STAGE } from './findings-bulk-write.sql';

import type {
  BatchCounts,
  BatchMeta,
  BatchOutcome,
  BatchTarget,
  ResightedBatch,
} from './batch-types';

// The batch's types live in batch-types.ts (batch-writes.ts needs them too); re-exported here
// for the callers of the write path.
export type {
  BatchCounts,
  BatchMeta,
  BatchOutcome,
  BatchSuppression,
  BatchTarget,
  ResightedBatch,
  SlaDays,
} from './batch-types';

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

  /**
   * Writes one batch. `after` (the previous batch's write, true when it wrote) lets the caller
   * start this batch while that one still runs: the transaction stages its rows first (COPY
   * into this connection's temporary tables, no lock taken), then waits for `after`, and only
   * then locks the product and the report and checks the watermark; nothing outside the
   * staging tables is written before that check. When `after` says the previous batch did not
   * write, nothing is done ('skipped').
   */
  writeBatch(
    target: BatchTarget,
    meta: BatchMeta,
    batch: StagedBatch,
    resighted?: ResightedBatch,
    after?: Promise<boolean>,
  ): Promise<BatchOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const client = rawClient(manager);
      const resightings = resighted?.staged.rows ?? 0;
      if (batch.rows > 0 || resightings > 0) await client.query(PREPARE_STAGE);
      if (resighted && resightings > 0) await stageResighted(manager, resighted.staged);
      // Staged ahead unless re-sightings may have to be upserted first (through the same table).
      const staged = batch.rows > 0 && resightings === 0;
      if (staged) await stage(manager, batch);
      if (after && !(await after.catch(() => false))) return { kind: 'skipped' };
      // Product first, then the report: a product deletion (product FOR UPDATE, then its
      // reports by cascade) can never wait on a batch that waits on it.
      const opened = await openBatch(client, target.productId, target.reportId);
      const state = opened?.report;
      if (!opened || !state || state.status !== 'pending') return { kind: 'skipped' };
      if (state.cancelled) return { kind: 'cancelled' };
      if (state.processed_batches !== meta.index) return { kind: 'skipped' };
      const counts = { new: 0, updated: 0, renewed: 0 };
      const merged = opened.merged;
      if (resighted && resightings > 0) {
        const touched = await touch(manager, target, meta);
        addCounts(counts, touched);
        if (touched.missing.length > 0) {
          // Changed since the memo was read: upserted like any other result (a statement of
          // its own: the batch may hold another result with the same identity).
          const rows = await resighted.normalizeAfterAll(touched.missing);
          addCounts(counts, await upsert(manager, target, rows, merged, false));
          await manager.query(`TRUNCATE ${STAGE}`);
        }
      }
      if (batch.rows > 0) addCounts(counts, await upsert(manager, target, batch, merged, staged));
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
      await preparedQuery(
        rawClient(manager),
        'findings_ingest_advance',
        advance.sql,
        advance.values,
      );
      return { kind: 'written', counts };
    });
  }

  /** Whether the product has no findings at all (merged ones count): see BatchTarget.firstIngest. */
  async productIsEmpty(productId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT NOT EXISTS (SELECT 1 FROM findings WHERE product_id = $1) AS empty`,
      [productId],
    )) as { empty: boolean }[];
    return rows[0]?.empty === true;
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
