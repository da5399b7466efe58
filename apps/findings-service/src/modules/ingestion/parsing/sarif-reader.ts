import { FindingBatch, ReportRunInfo, UploadDefaults } from './normalized-finding';
import {
  DEFAULT_BATCH_SIZE,
  FindingBatcher,
  ReadReportOptions,
  scanAll,
  scanChunks,
} from './report-batching';
import { parseCaptured } from './captured-json';
import { asReportSource, ReportChunk, ReportSource } from './report-source';
import { SarifResultItem, SarifScanHandler } from './sarif-scan-handler';
import { SarifRunContext } from './sarif-run-context';
import { normalizeSarifResult } from './sarif-result';

function runInfo(ctx: SarifRunContext): ReportRunInfo {
  return {
    format: 'sarif',
    run_index: ctx.runIndex,
    scanner: ctx.scanner,
    ...(ctx.scannerVersion === undefined ? {} : { scanner_version: ctx.scannerVersion }),
    ...(ctx.revision === undefined ? {} : { revision: ctx.revision }),
  };
}

class SarifNormalizer {
  private readonly infos = new Map<number, ReportRunInfo>();

  constructor(
    private readonly contexts: SarifRunContext[],
    private readonly batcher: FindingBatcher,
  ) {}

  *add(items: SarifResultItem[]): Generator<FindingBatch> {
    for (const item of items) {
      const ctx = this.contexts[item.runIndex];
      let info = this.infos.get(item.runIndex);
      if (!info) {
        info = runInfo(ctx);
        this.infos.set(item.runIndex, info);
      }
      const value = item.raw ? parseCaptured(item.raw, item.offset) : item.value;
      yield* this.batcher.push(info, normalizeSarifResult(value, ctx));
    }
  }
}

/**
 * Reads a SARIF 2.x report without building the whole document and yields batches of
 * normalized findings (each batch belongs to one run).
 *
 * Reopenable sources (files, buffers) are read twice: pass 1 parses the top-level and run
 * members (tool, rules, extensions, originalUriBaseIds, artifacts, invocations,
 * versionControlProvenance...) and skips results; pass 2 parses the results one by one. So
 * member order inside a run does not matter (`results` before `tool` is common when a
 * serializer sorts keys) and memory is bounded by the run metadata plus one batch. One-shot
 * streams are read once and keep each run's raw result bytes until the run closes.
 *
 * Throws `ReportParseError`: `report_malformed` (with the byte offset), `report_unsupported`.
 */
export async function* readSarif(
  input: ReportSource | AsyncIterable<ReportChunk>,
  defaults: UploadDefaults = {},
  options: ReadReportOptions = {},
): AsyncGenerator<FindingBatch> {
  const source = asReportSource(input);
  const batcher = new FindingBatcher(Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE));
  if (source.reopenable) {
    const metadata = new SarifScanHandler('metadata', defaults);
    await scanAll(source.open(), metadata);
    metadata.validateDocument();
    const normalizer = new SarifNormalizer(metadata.contexts, batcher);
    const results = new SarifScanHandler('results', defaults, metadata.contexts);
    for await (const _ of scanChunks(source.open(), results))
      yield* normalizer.add(results.drain());
  } else {
    const single = new SarifScanHandler('single', defaults);
    const normalizer = new SarifNormalizer(single.contexts, batcher);
    for await (const _ of scanChunks(source.open(), single)) yield* normalizer.add(single.drain());
    single.validateDocument();
    yield* normalizer.add(single.drain(true));
  }
  const last = batcher.flush();
  if (last) yield last;
}
