import type { ReportChunk, ReportSource } from '@platform/report-parsing';

/**
 * Reading the stored report failed (file gone, I/O error, storage unreachable): `errno` is
 * the read error's own code (`ENOENT`, `EIO`, ...) when it had one.
 */
export class StoredReportReadError extends Error {
  override readonly name = 'StoredReportReadError';

  constructor(
    message: string,
    readonly errno: string | undefined,
  ) {
    super(message);
  }

  static from(error: unknown): StoredReportReadError {
    if (error instanceof StoredReportReadError) return error;
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    return new StoredReportReadError(message, typeof code === 'string' ? code : undefined);
  }
}

async function* marked(chunks: AsyncIterable<ReportChunk>): AsyncGenerator<ReportChunk> {
  try {
    yield* chunks;
  } catch (error) {
    throw StoredReportReadError.from(error);
  }
}

/** The source whose read errors are StoredReportReadErrors (told apart from parse errors). */
export function markedReadErrors(source: ReportSource): ReportSource {
  return { reopenable: source.reopenable, open: () => marked(source.open()) };
}
