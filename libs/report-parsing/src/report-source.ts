import { createReadStream } from 'node:fs';

export type ReportChunk = Uint8Array | string;

/**
 * The bytes of an uploaded report. Readers make two passes over a reopenable source (first
 * the run metadata, then the results) so that memory stays bounded whatever the member order
 * inside a run; a one-shot source is read once and buffers each run's raw results.
 */
export interface ReportSource {
  readonly reopenable: boolean;
  /** Starts a fresh pass. A one-shot source throws on the second call. */
  open(): AsyncIterable<ReportChunk>;
}

/** A stored report file; 1 MiB reads by default. */
export function fileReportSource(path: string, chunkSize = 1 << 20): ReportSource {
  return { reopenable: true, open: () => createReadStream(path, { highWaterMark: chunkSize }) };
}

/** In-memory bytes, optionally split into small chunks (tests exercise chunk boundaries). */
export function bufferReportSource(data: ReportChunk, chunkSize = 1 << 20): ReportSource {
  const bytes = toBuffer(data);
  return {
    reopenable: true,
    open: async function* () {
      for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
    },
  };
}

/** A stream that can be read once (e.g. a request body). */
export function streamReportSource(stream: AsyncIterable<ReportChunk>): ReportSource {
  let opened = false;
  return {
    reopenable: false,
    open: () => {
      if (opened) throw new Error('one-shot report source opened twice');
      opened = true;
      return stream;
    },
  };
}

export function isReportSource(value: unknown): value is ReportSource {
  return typeof value === 'object' && value !== null && 'open' in value && 'reopenable' in value;
}

export function asReportSource(input: ReportSource | AsyncIterable<ReportChunk>): ReportSource {
  return isReportSource(input) ? input : streamReportSource(input);
}

export function toBuffer(chunk: ReportChunk): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
}
