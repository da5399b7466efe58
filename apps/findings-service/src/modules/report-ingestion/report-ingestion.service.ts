import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ReportParseError } from '@platform/report-parsing';
import { UnrecoverableError } from 'bullmq';
import {
  FindingsBulkWriteRepository,
  BatchOutcome,
  BatchTarget,
} from '../findings/bulk-write/findings-bulk-write.repository';
import { REPORT_STORAGE, ReportStorage } from '../storage/report-storage';
import { IngestionContext, IngestionReportsRepository } from './ingestion-reports.repository';
import { ParserRun, ParserThreadPool } from './parser-thread/parser-thread';
import type { ReportRunCoverage } from '../reports/report-coverage';
import { SuppressionMatcher } from '../suppression/suppression-matcher';

/**
 * Findings per batch: one transaction each (COPY into the staging table + one upsert). Larger
 * batches are no faster (docs/benchmarks.md); 2 000 keeps the crash-resume unit small.
 */
export const INGEST_BATCH_SIZE = 2_000;

/** Batches the parser thread may encode ahead of the one being written. */
export const PARSE_AHEAD_BATCHES = 2;

/**
 * Reports from this size on get a ResultMemo (the product's findings by content digest):
 * below it, parsing every result costs less than reading the memo.
 */
export const RESULT_MEMO_MIN_BYTES = 1 << 20;

/**
 * A SARIF result takes more than this many bytes, so a report of N bytes re-sights at most
 * N / this findings; a product with more memo rows than that gets no memo (reading it would
 * cost more than the report can save).
 */
export const RESULT_MEMO_BYTES_PER_ROW = 128;

export type IngestionResult = 'completed' | 'already_finished' | 'missing' | 'superseded';

/**
 * Ingests one stored report: a parser thread streams it through the parser and encodes each
 * batch as COPY text while this thread writes the previous batch (COPY + one set-based upsert),
 * so parsing and the database work run on two cores. Batches below the report's watermark
 * (written by an earlier, interrupted attempt) are parsed again but neither encoded nor written.
 * A missing file and a cancellation fail the report here; other errors are thrown for the
 * caller to classify (ingestion-failure.ts).
 */
@Injectable()
export class ReportIngestionService implements OnApplicationShutdown {
  private readonly parsers = new ParserThreadPool();

  constructor(
    @Inject(REPORT_STORAGE) private readonly storage: ReportStorage,
    private readonly reports: IngestionReportsRepository,
    private readonly findings: FindingsBulkWriteRepository,
    private readonly suppression: SuppressionMatcher,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.parsers.close();
  }

  async ingest(reportId: string): Promise<IngestionResult> {
    const ctx = await this.reports.load(reportId);
    if (!ctx) return 'missing';
    if (ctx.status !== 'pending') return 'already_finished';
    if (!(await this.storage.exists(ctx.storageKey))) {
      await this.reports.fail(reportId, 'report_file_missing');
      throw new UnrecoverableError('report_file_missing');
    }
    await this.reports.markStarted(reportId);
    const outcome = await this.writeAll(ctx);
    if (outcome.kind === 'skipped') return 'superseded';
    if (
      outcome.kind === 'cancelled' ||
      !(await this.reports.complete(reportId, outcome.coverage))
    ) {
      await this.reports.fail(reportId, 'cancelled');
      throw new UnrecoverableError('cancelled');
    }
    return 'completed';
  }

  /** Writes every batch; when all were written, the runs' coverage comes with the outcome. */
  private async writeAll(
    ctx: IngestionContext,
  ): Promise<{ kind: BatchOutcome['kind']; coverage: ReportRunCoverage[] }> {
    const target: BatchTarget = {
      reportId: ctx.reportId,
      productId: ctx.productId,
      projectId: ctx.projectId,
      seenAt: ctx.createdAt,
      sla: ctx.sla,
      // The project's enabled rules, once per report (docs/findings-service/suppression.md).
      suppression: await this.suppression.forIngestion(ctx.projectId),
      // A product's first report inserts its batches plainly (INSERT_NEW) until one conflicts.
      ...((await this.findings.productIsEmpty(ctx.productId))
        ? { firstIngest: { insertOnly: true } }
        : {}),
    };
    const memo = ctx.sizeBytes >= RESULT_MEMO_MIN_BYTES;
    const run = this.parsers.acquire(this.storage.source(ctx.storageKey), {
      path: this.storage.localPath?.(ctx.storageKey),
      format: ctx.requestedFormat ?? undefined,
      defaults: {
        ...(ctx.engine ? { engine: ctx.engine } : {}),
        ...(ctx.engineVersion ? { engine_version: ctx.engineVersion } : {}),
        ...(ctx.commitId ? { commit_id: ctx.commitId } : {}),
      },
      batchSize: INGEST_BATCH_SIZE,
      skipBelow: ctx.processedBatches,
      ahead: PARSE_AHEAD_BATCHES,
      memo,
    });
    if (memo) this.provideMemo(run, ctx);
    let clean = false;
    try {
      const kind = await this.writeBatches(run, target);
      clean = true;
      return { kind, coverage: run.coverage() };
    } catch (error) {
      clean = error instanceof ReportParseError;
      throw error;
    } finally {
      await run.release(clean);
    }
  }

  /** Reads the memo while the thread reads the run metadata; without it, every result is parsed. */
  private provideMemo(run: ParserRun, ctx: IngestionContext): void {
    const maxRows = Math.ceil(ctx.sizeBytes / RESULT_MEMO_BYTES_PER_ROW);
    this.findings.loadResultMemo(ctx.productId, maxRows).then(
      (data) => run.provideMemo(data ?? null),
      () => run.provideMemo(null),
    );
  }

  /**
   * Writes each batch while the thread prepares the next ones, and starts batch N + 1's
   * transaction (its COPY into the staging tables, on a second connection) while batch N's
   * still runs; N + 1 takes its locks only once N has committed (FindingsBulkWriteRepository
   * writeBatch, `after`), so the batches commit in order and the watermark stays exact. At most
   * two writes are in flight, and every one has settled before this returns or throws (the
   * last one may still need the thread for a stale re-sighting).
   */
  private async writeBatches(run: ParserRun, target: BatchTarget): Promise<BatchOutcome['kind']> {
    let inFlight: Promise<BatchOutcome> | undefined;
    try {
      for await (const batch of run.batches()) {
        const previous = inFlight;
        inFlight = this.findings.writeBatch(
          target,
          {
            index: batch.index,
            results: batch.results,
            format: batch.format,
            scanner: batch.scanner,
            scannerVersion: batch.scannerVersion,
            revision: batch.revision,
            skipped: batch.skipped,
            ignored: batch.ignored,
          },
          { data: batch.copy, rows: batch.rows, facts: batch.facts },
          batch.resighted && {
            staged: batch.resighted,
            normalizeAfterAll: (ids) => run.resolve(batch.index, ids),
          },
          previous?.then(
            (outcome) => outcome.kind === 'written',
            () => false,
          ),
        );
        // Settled later; avoid an unhandled rejection while the previous batch is awaited.
        inFlight.catch(() => undefined);
        if (previous) {
          const outcome = await previous;
          if (outcome.kind !== 'written') return outcome.kind;
        }
      }
      return inFlight ? (await inFlight).kind : 'written';
    } finally {
      // A batch started after a failed or unwritten one ends without writing; wait for it.
      if (inFlight) await inFlight.catch(() => undefined);
    }
  }
}
