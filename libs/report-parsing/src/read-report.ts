import { DETECTION_PREFIX_BYTES, detectReportFormat, ReportFormat } from './detect-report-format';
import { FindingBatch, UploadDefaults } from './normalized-finding';
import { ReadReportOptions } from './report-batching';
import { ReportParseError } from './report-parse.errors';
import { asReportSource, ReportChunk, ReportSource, toBuffer } from './report-source';
import { readSarif } from './sarif-reader';
import { readSonarqube } from './sonarqube-reader';

interface Peeked {
  prefix: Buffer;
  source: ReportSource;
}

/** Reads up to DETECTION_PREFIX_BYTES without losing them for a one-shot source. */
async function peek(source: ReportSource): Promise<Peeked> {
  const iterator = source.open()[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < DETECTION_PREFIX_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = toBuffer(next.value);
    head.push(chunk);
    size += chunk.length;
  }
  const prefix = Buffer.concat(head);
  if (source.reopenable) {
    if (!done) await iterator.return?.();
    return { prefix, source };
  }
  const replay: AsyncIterable<ReportChunk> = {
    [Symbol.asyncIterator]: async function* () {
      yield* head;
      if (done) return;
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        yield next.value;
    },
  };
  return { prefix, source: { reopenable: false, open: () => replay } };
}

/**
 * Reads a report of the given format, detecting it from the content when `format` is
 * undefined (`report_format_unknown` when detection cannot tell).
 */
export async function* readReport(
  input: ReportSource | AsyncIterable<ReportChunk>,
  format: ReportFormat | undefined,
  defaults: UploadDefaults = {},
  options: ReadReportOptions = {},
): AsyncGenerator<FindingBatch> {
  let source = asReportSource(input);
  let resolved = format;
  if (resolved === undefined) {
    const peeked = await peek(source);
    source = peeked.source;
    resolved = detectReportFormat(peeked.prefix);
    if (resolved === undefined) {
      throw new ReportParseError(
        'report_format_unknown',
        'could not detect the report format: expected a SARIF 2.x log or a SonarQube issues export',
      );
    }
  }
  if (resolved === 'sarif') yield* readSarif(source, defaults, options);
  else yield* readSonarqube(source, defaults, options);
}
