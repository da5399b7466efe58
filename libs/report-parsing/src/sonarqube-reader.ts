import { parseCaptured } from './captured-json';
import { FindingBatch, ReportRunInfo, UploadDefaults } from './normalized-finding';
import {
  DEFAULT_BATCH_SIZE,
  FindingBatcher,
  ReadReportOptions,
  scanAll,
  scanChunks,
} from './report-batching';
import { asReportSource, ReportChunk, ReportSource } from './report-source';
import { buildSonarContext, SonarContext } from './sonarqube-context';
import { normalizeSonarRecord } from './sonarqube-issue';
import { SonarRecordItem, SonarScanHandler } from './sonarqube-scan-handler';
import { IgnoredMask } from './result-warnings';

function* normalizeAll(
  items: SonarRecordItem[],
  ctx: SonarContext,
  run: ReportRunInfo,
  batcher: FindingBatcher,
  mask = new IgnoredMask(),
): Generator<FindingBatch> {
  for (const item of items) {
    const value = item.raw ? parseCaptured(item.raw, item.offset) : item.value;
    mask.bits = 0;
    const normalized = normalizeSonarRecord(item.kind, value, ctx, mask);
    if (typeof normalized === 'string') yield* batcher.skip(run, normalized);
    else yield* batcher.push(run, normalized, mask.bits);
  }
}

function runInfo(ctx: SonarContext): ReportRunInfo {
  const info: ReportRunInfo = {
    format: 'sonarqube',
    run_index: 0,
    scanner: ctx.scanner,
    coverage: ctx.coverage,
  };
  if (ctx.scannerVersion !== undefined) info.scanner_version = ctx.scannerVersion;
  if (ctx.revision !== undefined) info.revision = ctx.revision;
  return info;
}

/**
 * Reads a SonarQube JSON report (accepted shapes: docs/findings-service/sonarqube.md) with
 * the same two-pass strategy as `readSarif`: pass 1 parses `components` and `rules` (which the Web API
 * writes after `issues`), pass 2 parses `issues[]` / `hotspots[]` one by one. A one-shot
 * stream keeps the raw records until the end of the document.
 */
export async function* readSonarqube(
  input: ReportSource | AsyncIterable<ReportChunk>,
  defaults: UploadDefaults = {},
  options: ReadReportOptions = {},
): AsyncGenerator<FindingBatch> {
  const source = asReportSource(input);
  const batcher = new FindingBatcher(Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE));
  if (source.reopenable) {
    const metadata = new SonarScanHandler('metadata');
    await scanAll(source.open(), metadata);
    metadata.validateDocument();
    const ctx = buildSonarContext(metadata.top, defaults, metadata.records);
    const run = runInfo(ctx);
    options.onRun?.(run);
    const records = new SonarScanHandler('records');
    const mask = new IgnoredMask();
    for await (const _ of scanChunks(source.open(), records)) {
      yield* normalizeAll(records.drain(), ctx, run, batcher, mask);
    }
  } else {
    const single = new SonarScanHandler('single');
    const pending: SonarRecordItem[] = [];
    for await (const _ of scanChunks(source.open(), single)) {
      for (const item of single.drain()) pending.push(item);
    }
    single.validateDocument();
    const ctx = buildSonarContext(single.top, defaults, pending.length);
    const run = runInfo(ctx);
    yield* normalizeAll(pending, ctx, run, batcher);
    options.onRun?.(run);
  }
  const last = batcher.flush();
  if (last) yield last;
}
