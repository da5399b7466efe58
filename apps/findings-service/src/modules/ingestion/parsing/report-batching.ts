import { JsonStructureScanner, ScanHandler } from './json-structure-scanner';
import { FindingBatch, NormalizedFinding, ReportRunInfo } from './normalized-finding';
import { ReportChunk, toBuffer } from './report-source';

export const DEFAULT_BATCH_SIZE = 1000;

export interface ReadReportOptions {
  /** Findings per yielded batch (default 1000). */
  batchSize?: number;
}

/**
 * Feeds `chunks` through a scanner driving `handler`, yielding after every chunk (and once
 * after the end) so that the caller can drain what the handler collected.
 */
export async function* scanChunks(
  chunks: AsyncIterable<ReportChunk>,
  handler: ScanHandler,
): AsyncGenerator<void> {
  const scanner = new JsonStructureScanner(handler);
  for await (const chunk of chunks) {
    scanner.write(toBuffer(chunk));
    yield;
  }
  scanner.end();
  yield;
}

/** Runs a whole pass whose handler only collects (nothing to drain on the way). */
export async function scanAll(
  chunks: AsyncIterable<ReportChunk>,
  handler: ScanHandler,
): Promise<void> {
  for await (const _ of scanChunks(chunks, handler));
}

/** Groups findings into batches of one run each. */
export class FindingBatcher {
  private findings: NormalizedFinding[] = [];
  private run: ReportRunInfo | undefined;

  constructor(private readonly size: number = DEFAULT_BATCH_SIZE) {}

  /** Adds a finding; returns the batches that became complete (usually none). */
  push(run: ReportRunInfo, finding: NormalizedFinding): FindingBatch[] {
    const out: FindingBatch[] = [];
    if (this.run !== run) {
      const pending = this.flush();
      if (pending) out.push(pending);
      this.run = run;
    }
    this.findings.push(finding);
    if (this.findings.length >= this.size) {
      const full = this.flush();
      if (full) out.push(full);
      this.run = run;
    }
    return out;
  }

  /** The incomplete batch, if any. */
  flush(): FindingBatch | undefined {
    if (!this.run || this.findings.length === 0) return undefined;
    const batch = { run: this.run, findings: this.findings };
    this.findings = [];
    return batch;
  }
}
