import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import {
  FindingsIngestionRepository,
  BatchOutcome,
  BatchTarget,
} from '../findings/ingestion/findings-ingestion.repository';
import { distinctRows, findingRow } from '../findings/ingestion/finding-row';
import { REPORT_STORAGE, ReportStorage } from '../storage/report-storage';
import { IngestionContext, IngestionReportsRepository } from './ingestion-reports.repository';
import { FindingBatch, readReport, ReportParseError } from './parsing';

/** Findings per batch: one transaction and one upsert statement each. */
export const INGEST_BATCH_SIZE = 2_000;

export type IngestionResult = 'completed' | 'already_finished' | 'missing' | 'superseded';

/**
 * Ingests one stored report: streams it through the parser in batches and writes each batch
 * with one set-based upsert. Parsing the next batch overlaps the database write of the
 * previous one. Batches below the report's watermark (written by an earlier, interrupted
 * attempt) are parsed again but not written.
 */
@Injectable()
export class ReportIngestionService {
  constructor(
    @Inject(REPORT_STORAGE) private readonly storage: ReportStorage,
    private readonly reports: IngestionReportsRepository,
    private readonly findings: FindingsIngestionRepository,
  ) {}

  async ingest(reportId: string): Promise<IngestionResult> {
    const ctx = await this.reports.load(reportId);
    if (!ctx) return 'missing';
    if (ctx.status !== 'pending') return 'already_finished';
    if (!(await this.storage.exists(ctx.storageKey))) {
      await this.reports.fail(reportId, 'report_file_missing', 'the stored report file is gone');
      throw new UnrecoverableError('report file missing');
    }
    await this.reports.markStarted(reportId);
    let outcome: BatchOutcome['kind'] = 'written';
    try {
      outcome = await this.writeAll(ctx);
    } catch (error) {
      if (error instanceof ReportParseError) {
        await this.reports.fail(reportId, error.code, error.message);
        throw new UnrecoverableError(`${error.code}: ${error.message}`);
      }
      throw error;
    }
    if (outcome === 'skipped') return 'superseded';
    if (outcome === 'cancelled' || !(await this.reports.complete(reportId))) {
      await this.reports.fail(reportId, 'cancelled', 'cancelled before the results were written');
      throw new UnrecoverableError('cancelled');
    }
    return 'completed';
  }

  private async writeAll(ctx: IngestionContext): Promise<BatchOutcome['kind']> {
    const target: BatchTarget = {
      reportId: ctx.reportId,
      productId: ctx.productId,
      projectId: ctx.projectId,
      seenAt: ctx.createdAt,
      sla: ctx.sla,
    };
    const seenAt = ctx.createdAt.toISOString();
    const batches = readReport(
      this.storage.source(ctx.storageKey),
      ctx.requestedFormat ?? undefined,
      {
        ...(ctx.engine ? { engine: ctx.engine } : {}),
        ...(ctx.engineVersion ? { engine_version: ctx.engineVersion } : {}),
        ...(ctx.commitId ? { commit_id: ctx.commitId } : {}),
      },
      { batchSize: INGEST_BATCH_SIZE },
    );
    let index = 0;
    let inFlight: Promise<BatchOutcome> | undefined;
    for await (const batch of batches) {
      const current = index;
      index += 1;
      if (current < ctx.processedBatches) continue;
      if (inFlight) {
        const previous = await inFlight;
        if (previous.kind !== 'written') return previous.kind;
      }
      inFlight = this.write(target, current, batch, seenAt);
      // Settled later; avoid an unhandled rejection while the parser runs.
      inFlight.catch(() => undefined);
    }
    return inFlight ? (await inFlight).kind : 'written';
  }

  private write(
    target: BatchTarget,
    index: number,
    batch: FindingBatch,
    seenAt: string,
  ): Promise<BatchOutcome> {
    const rows = distinctRows(batch.findings.map((f) => findingRow(f, seenAt)));
    return this.findings.writeBatch(
      target,
      {
        index,
        results: batch.findings.length,
        format: batch.run.format,
        scanner: batch.run.scanner,
        scannerVersion: batch.run.scanner_version ?? null,
      },
      rows,
    );
  }
}
