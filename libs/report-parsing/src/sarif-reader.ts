import {
  FindingBatch,
  NormalizedFinding,
  ReportRunInfo,
  UploadDefaults,
} from './normalized-finding';
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
import { runContextMaterial, SarifRunContext } from './sarif-run-context';
import { normalizeSarifResult } from './sarif-result';
import { ResultMemo, resultDigest, runSeed } from './result-digest';
import { IgnoredMask, ResultWarningCode } from './result-warnings';

/**
 * Normalizes one raw result. Only a finding read without any ignored value gets its content
 * digest: the memo then never re-sights a result whose warnings the report must count again.
 */
function normalizeRaw(
  item: SarifResultItem,
  ctx: SarifRunContext,
  digest: string,
  mask: IgnoredMask,
): NormalizedFinding | ResultWarningCode {
  mask.bits = 0;
  const finding = normalizeSarifResult(parseCaptured(item.raw, item.offset), ctx, mask);
  if (typeof finding !== 'string' && mask.bits === 0) finding.content_digest = digest;
  return finding;
}

/** A re-sighting's result was stored with this digest, so it normalizes cleanly. */
function storable(normalized: NormalizedFinding | ResultWarningCode): NormalizedFinding {
  if (typeof normalized === 'string') throw new Error(`re-sighted result is ${normalized}`);
  return normalized;
}

function runInfo(ctx: SarifRunContext): ReportRunInfo {
  return {
    format: 'sarif',
    run_index: ctx.runIndex,
    scanner: ctx.scanner,
    ...(ctx.scannerVersion === undefined ? {} : { scanner_version: ctx.scannerVersion }),
    ...(ctx.revision === undefined ? {} : { revision: ctx.revision }),
    coverage: ctx.coverage,
  };
}

/**
 * Turns raw results into findings. Every result gets a content digest (stored with the
 * finding); a result whose digest the memo knows is an unchanged re-sighting of that finding
 * and is neither parsed nor normalized (on a re-scan, most results are). A result that cannot
 * be stored (see sarifResultProblem) is skipped and counted; it is never in the memo (its
 * digest was never stored), so resumed and memo-less reads skip the same results. Neither is
 * a result with an ignored value (normalizeRaw), so its warnings are counted on every read.
 */
class SarifNormalizer {
  private readonly runs = new Map<number, { info: ReportRunInfo; seed: Buffer }>();
  private readonly mask = new IgnoredMask();
  private announced = 0;

  constructor(
    private readonly contexts: SarifRunContext[],
    private readonly batcher: FindingBatcher,
    private readonly memo?: ResultMemo,
  ) {}

  *add(items: SarifResultItem[]): Generator<FindingBatch> {
    for (const item of items) {
      const ctx = this.contexts[item.runIndex];
      const run = this.runOf(item.runIndex, ctx);
      const digest = resultDigest(run.seed, item.raw);
      const known = this.memo?.findingOf(digest);
      if (known !== undefined) {
        yield* this.batcher.pushResighted(run.info, {
          finding_id: known,
          content_digest: digest,
          normalize: () => storable(normalizeRaw(item, ctx, digest, new IgnoredMask())),
        });
        continue;
      }
      const normalized = normalizeRaw(item, ctx, digest, this.mask);
      if (typeof normalized === 'string') yield* this.batcher.skip(run.info, normalized);
      else yield* this.batcher.push(run.info, normalized, this.mask.bits);
    }
  }

  /** Announces every run read so far that was not announced yet (ReadReportOptions.onRun). */
  announce(onRun: ((run: ReportRunInfo) => void) | undefined): void {
    if (!onRun) return;
    for (; this.announced < this.contexts.length; this.announced += 1) {
      onRun(this.runOf(this.announced, this.contexts[this.announced]).info);
    }
  }

  private runOf(runIndex: number, ctx: SarifRunContext): { info: ReportRunInfo; seed: Buffer } {
    let run = this.runs.get(runIndex);
    if (!run) {
      run = { info: runInfo(ctx), seed: runSeed('sarif', runContextMaterial(ctx)) };
      this.runs.set(runIndex, run);
    }
    return run;
  }
}

/**
 * Reads a SARIF 2.x report without building the whole document and yields batches of
 * normalized findings (each batch belongs to one run).
 *
 * Reopenable sources (files, buffers) are read twice: pass 1 parses the top-level and run
 * members (tool, rules, extensions, originalUriBaseIds, artifacts, invocations,
 * versionControlProvenance...) and skips results; pass 2 reads the results one by one (each
 * is parsed unless `options.memo` knows its content digest, see SarifNormalizer). So
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
    const memo = await options.memo?.();
    const normalizer = new SarifNormalizer(metadata.contexts, batcher, memo);
    normalizer.announce(options.onRun);
    const results = new SarifScanHandler('results', defaults, metadata.contexts);
    for await (const _ of scanChunks(source.open(), results))
      yield* normalizer.add(results.drain());
  } else {
    const single = new SarifScanHandler('single', defaults);
    const normalizer = new SarifNormalizer(single.contexts, batcher);
    for await (const _ of scanChunks(source.open(), single)) yield* normalizer.add(single.drain());
    single.validateDocument();
    yield* normalizer.add(single.drain(true));
    normalizer.announce(options.onRun);
  }
  const last = batcher.flush();
  if (last) yield last;
}
