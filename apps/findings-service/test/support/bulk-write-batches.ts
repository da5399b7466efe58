import { DataSource } from 'typeorm';
import { bufferReportSource, NormalizedFinding, readReport } from '@platform/report-parsing';
import { stagedBatch } from '../../src/modules/findings/bulk-write/finding-row';
import {
  BatchOutcome,
  BatchTarget,
  FindingsBulkWriteRepository,
} from '../../src/modules/findings/bulk-write/findings-bulk-write.repository';
import type { Product } from './findings-seed';
import { syntheticSarif } from './synthetic-sarif';

/** The remediation days the batch tests write with (the defaults of a new project). */
const SLA = { CRITICAL: 7, HIGH: 14, MEDIUM: 30, LOW: 90, INFO: null };

/** `n` normalized results of the synthetic SARIF report, as the parser thread gives them. */
export async function syntheticResults(n: number): Promise<NormalizedFinding[]> {
  const results: NormalizedFinding[] = [];
  for await (const batch of readReport(bufferReportSource(syntheticSarif(n)), 'sarif'))
    results.push(...batch.findings);
  return results;
}

/**
 * One batch of `rows` written straight through the bulk writer for `report` of `product`, as
 * ingestion writes it (batch `index`; `firstIngest` and `after` as in BatchTarget and
 * FindingsBulkWriteRepository.writeBatch).
 */
export function writeBatch(
  db: DataSource,
  product: Product,
  report: { id: string; created_at: Date; firstIngest?: BatchTarget['firstIngest'] },
  index: number,
  rows: NormalizedFinding[],
  after?: Promise<boolean>,
): Promise<BatchOutcome> {
  const target: BatchTarget = {
    reportId: report.id,
    productId: product.id,
    projectId: product.project_id,
    seenAt: report.created_at,
    sla: SLA,
    ...(report.firstIngest ? { firstIngest: report.firstIngest } : {}),
  };
  const meta = {
    index,
    results: rows.length,
    format: 'sarif',
    scanner: 'SynthScanner',
    scannerVersion: null,
    revision: null,
  };
  return new FindingsBulkWriteRepository(db).writeBatch(
    target,
    meta,
    stagedBatch(rows),
    undefined,
    after,
  );
}
