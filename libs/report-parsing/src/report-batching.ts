import { JsonStructureScanner, ScanHandler } from './json-structure-scanner';
import {
  FindingBatch,
  NormalizedFinding,
  ReportRunInfo,
  ResightedFinding,
} from './normalized-finding';
import { ReportChunk, toBuffer } from './report-source';
import type { ResultMemo } from './result-digest';
import { addIgnoredBits } from './result-warnings';
import type { IgnoredValues, ResultWarningCode, ResultWarnings } from './result-warnings';

export const DEFAULT_BATCH_SIZE = 1000;

export interface ReadReportOptions {
  /** Results per yielded batch (default 1000). */
  batchSize?: number;
  /**
   * The product's findings by content digest, awaited once the run metadata is read (SARIF
   * from a reopenable source): known results are yielded as `resighted`, not normalized.
   */
  memo?: () => Promise<ResultMemo | undefined>;
  /**
   * Called once per run, in run order, with the ReportRunInfo its batches carry (the same
   * object): right after pass 1 for a reopenable source, at the end of a one-shot stream. Every
   * run is announced, also one without results or batches (its coverage still says what it
   * looked at).
   */
  onRun?: (run: ReportRunInfo) => void;
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

/**
 * Groups results (normalized or re-sighted) into batches of `size` results of one run each;
 * skipped results are counted on the next batch of their run, ignored values on the batch of
 * their finding.
 */
export class FindingBatcher {
  private findings: NormalizedFinding[] = [];
  private resighted: ResightedFinding[] = [];
  private skipped: ResultWarnings = {};
  private ignored: IgnoredValues = {};
  private hasSkipped = false;
  private run: ReportRunInfo | undefined;

  constructor(private readonly size: number = DEFAULT_BATCH_SIZE) {}

  /**
   * Adds a finding (`ignoredBits`: its IgnoredMask bits); returns the batches that became
   * complete (usually none).
   */
  push(run: ReportRunInfo, finding: NormalizedFinding, ignoredBits = 0): FindingBatch[] {
    const out = this.switchTo(run);
    this.findings.push(finding);
    if (ignoredBits !== 0) addIgnoredBits(this.ignored, ignoredBits);
    return this.fill(run, out);
  }

  /** Adds an unchanged re-sighting; returns the batches that became complete. */
  pushResighted(run: ReportRunInfo, resighted: ResightedFinding): FindingBatch[] {
    const out = this.switchTo(run);
    this.resighted.push(resighted);
    return this.fill(run, out);
  }

  /**
   * Counts a result that cannot be stored, on a batch of its own run (a pending batch of
   * another run is completed first): `skipped` always belongs to `run`.
   */
  skip(run: ReportRunInfo, code: ResultWarningCode): FindingBatch[] {
    const out = this.switchTo(run);
    this.skipped[code] = (this.skipped[code] ?? 0) + 1;
    this.hasSkipped = true;
    return out;
  }

  /** The incomplete batch, if any. */
  flush(): FindingBatch | undefined {
    if (!this.run || (this.findings.length + this.resighted.length === 0 && !this.hasSkipped))
      return undefined;
    const batch = {
      run: this.run,
      findings: this.findings,
      resighted: this.resighted,
      skipped: this.skipped,
      ignored: this.ignored,
    };
    this.findings = [];
    this.resighted = [];
    this.skipped = {};
    this.ignored = {};
    this.hasSkipped = false;
    return batch;
  }

  private switchTo(run: ReportRunInfo): FindingBatch[] {
    if (this.run === run) return [];
    const pending = this.flush();
    this.run = run;
    return pending ? [pending] : [];
  }

  private fill(run: ReportRunInfo, out: FindingBatch[]): FindingBatch[] {
    if (this.findings.length + this.resighted.length >= this.size) {
      const full = this.flush();
      if (full) out.push(full);
      this.run = run;
    }
    return out;
  }
}
