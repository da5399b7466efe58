import type {
  IgnoredValues,
  ReportFormat,
  ResultWarnings,
  UploadDefaults,
} from '@platform/report-parsing';
import type { ReportRunCoverage } from '../../reports/report-coverage';
import type { StagedFacts } from '../../findings/bulk-write/finding-row';

/**
 * Messages between the worker's main thread and its ingestion parser thread. The main thread
 * owns the report storage and the database; the parser thread reads the report's bytes through
 * `open`/`pull` requests (so any ReportStorage works), parses, normalizes, hashes and encodes
 * each batch as COPY text and hands it over with its buffer transferred (no copy). Stream ids
 * are unique for the thread's lifetime, so a late reply for an earlier report is ignored.
 */
export interface ParserThreadInput {
  /** A local file the thread reads itself; without it, the bytes come through `open`/`pull`. */
  path?: string;
  format: ReportFormat | undefined;
  defaults: UploadDefaults;
  batchSize: number;
  /** Batches below this index were written by an earlier attempt: parsed, not encoded or sent. */
  skipBelow: number;
  /** Batches the thread may encode ahead of the main thread's consumption. */
  ahead: number;
  /**
   * A `memo` message follows (the product's findings by content digest, read while the thread
   * reads the run metadata); results it knows are sent as re-sightings, not normalized.
   */
  memo: boolean;
}

/** Parser thread -> main thread. */
export type ParserThreadMessage =
  | { type: 'open'; stream: number }
  | { type: 'pull'; stream: number }
  | { type: 'close'; stream: number }
  | {
      type: 'batch';
      index: number;
      results: number;
      rows: number;
      format: string;
      scanner: string;
      scannerVersion: string | null;
      revision: string | null;
      copy: ArrayBuffer;
      /** What the rows of `copy` hold (finding-row.ts, StagedFacts). */
      facts: StagedFacts | undefined;
      /** `finding_id \t content_digest` lines of the unchanged re-sightings, if any. */
      resighted: ArrayBuffer | null;
      resightedRows: number;
      /** Results read since the previous batch that cannot be stored, per warning code. */
      skipped: ResultWarnings;
      /** Findings of the batch stored without a value of theirs, per code. */
      ignored: IgnoredValues;
    }
  | {
      type: 'done';
      batches: number;
      /** Every run of the report, in run order, with its results not stored (all batches). */
      runs: ReportRunCoverage[];
    }
  | { type: 'resolved'; request: number; copy: ArrayBuffer; rows: number }
  | { type: 'resolve_failed'; request: number; message: string }
  | {
      type: 'failed';
      /** A ReportParseError's code, else null (a read error or a bug). */
      code: string | null;
      message: string;
      details?: Record<string, string | number>;
      /** Reading the stored report failed (not a parse error): its errno, if any. */
      read?: { errno?: string };
    };

/** Main thread -> parser thread. A thread runs one `start` at a time and is reused. */
export type MainThreadMessage =
  | { type: 'start'; input: ParserThreadInput }
  | { type: 'chunk'; stream: number; data: ArrayBuffer }
  | { type: 'end'; stream: number }
  | { type: 'read_failed'; stream: number; message: string; errno?: string }
  | { type: 'credit' }
  /** COPY text `id \t content_digest` lines, or null: no memo for this report. */
  | { type: 'memo'; data: ArrayBuffer | null }
  /**
   * Normalize these re-sightings of batch `index` after all (their findings changed since the
   * memo was read); answered with `resolved` (COPY text as in a batch) or `resolve_failed`.
   */
  | { type: 'resolve'; request: number; index: number; findingIds: string[] };

/**
 * An ArrayBuffer holding exactly `bytes`, for bytes the caller created and drops after
 * transferring: their own buffer when they span all of it, else a copy (a small Buffer lives
 * in Node's shared pool, which must never be detached).
 */
export function ownArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  if (
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    bytes.buffer instanceof ArrayBuffer
  ) {
    return bytes.buffer;
  }
  return copiedArrayBuffer(bytes);
}

/** A copy of `bytes` to transfer: the sender may still hold (and reuse) the original. */
export function copiedArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}
