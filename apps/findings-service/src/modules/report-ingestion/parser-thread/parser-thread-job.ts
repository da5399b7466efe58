import type { Worker } from 'node:worker_threads';
import type { StagedBatch, StagedFacts } from '../../findings/bulk-write/finding-row';
import {
  ReportChunk,
  ReportParseError,
  ReportParseErrorCode,
  ReportSource,
  ResultWarnings,
  IgnoredValues,
} from '@platform/report-parsing';
import {
  copiedArrayBuffer,
  MainThreadMessage,
  ParserThreadInput,
  ParserThreadMessage,
} from './parser-thread.protocol';
import { StoredReportReadError } from './stored-report-read-error';
import type { ReportRunCoverage } from '../../reports/report-coverage';

export { StoredReportReadError } from './stored-report-read-error';

/** One batch as encoded by the parser thread. */
export interface EncodedBatch {
  index: number;
  /** Results before same-identity results were merged. */
  results: number;
  /** Distinct identities: lines of `copy`. */
  rows: number;
  format: string;
  scanner: string;
  scannerVersion: string | null;
  revision: string | null;
  /** COPY text (see finding-row.ts). */
  copy: Buffer;
  /** What its rows hold (finding-row.ts, StagedFacts). */
  facts: StagedFacts | undefined;
  /** Unchanged re-sightings (`finding_id \t content_digest` lines), if any. */
  resighted: StagedBatch | undefined;
  /** Results read since the previous batch that cannot be stored, per warning code. */
  skipped: ResultWarnings;
  /** Findings of the batch stored without a value of theirs, per code. */
  ignored: IgnoredValues;
}

/** The main thread's side of one report on a parser thread (see ParserThreadPool). */
export class ParserThreadJob {
  private readonly streams = new Map<number, AsyncIterator<ReportChunk>>();
  private readonly queue: ParserThreadMessage[] = [];
  private waiter: (() => void) | undefined;
  private failure: Error | undefined;
  private readonly resolving = new Map<
    number,
    { resolve: (rows: StagedBatch) => void; reject: (error: Error) => void }
  >();
  private nextRequest = 0;
  private detached = false;
  /** The thread died or failed outside a report's own parse error. */
  broken = false;
  /** The thread finished the report (`done`, or a parse error): it is idle again. */
  ended = false;
  /** Every run's coverage, once the thread read the report to its end (`done`). */
  runs: ReportRunCoverage[] = [];
  private readonly onMessage = (message: ParserThreadMessage): void => void this.receive(message);
  private readonly onError = (error: Error): void => this.fail(error);
  private readonly onExit = (code: number): void =>
    this.fail(new Error(`ingestion parser thread exited with code ${code}`));

  constructor(
    private readonly worker: Worker,
    private readonly source: ReportSource,
  ) {
    worker.on('message', this.onMessage);
    worker.on('error', this.onError);
    worker.on('exit', this.onExit);
  }

  start(input: ParserThreadInput): void {
    this.post({ type: 'start', input });
  }

  /** The memo announced by `input.memo` (COPY text), or null: none for this report. */
  provideMemo(data: Buffer | null): void {
    // Late (the report was abandoned): the thread may already be parsing another report.
    if (this.detached) return;
    const copy = data ? copiedArrayBuffer(data) : null;
    this.post({ type: 'memo', data: copy }, copy ? [copy] : []);
  }

  /** Normalizes re-sightings of batch `index` after all (their findings changed meanwhile). */
  resolve(index: number, findingIds: string[]): Promise<StagedBatch> {
    if (this.detached) return Promise.reject(new Error('ingestion parser thread released'));
    if (this.failure) return Promise.reject(this.failure);
    const request = this.nextRequest;
    this.nextRequest += 1;
    return new Promise((resolve, reject) => {
      this.resolving.set(request, { resolve, reject });
      this.post({ type: 'resolve', request, index, findingIds });
    });
  }

  async *batches(): AsyncGenerator<EncodedBatch> {
    for (;;) {
      const message = await this.next();
      if (message.type === 'done' || message.type === 'failed') this.ended = true;
      if (message.type === 'done') {
        this.runs = message.runs;
        return;
      }
      if (message.type === 'failed') throw parseFailure(message);
      if (message.type !== 'batch') continue;
      this.post({ type: 'credit' });
      yield {
        index: message.index,
        results: message.results,
        rows: message.rows,
        format: message.format,
        scanner: message.scanner,
        scannerVersion: message.scannerVersion,
        revision: message.revision,
        copy: Buffer.from(message.copy),
        facts: message.facts,
        resighted: message.resighted
          ? { data: Buffer.from(message.resighted), rows: message.resightedRows }
          : undefined,
        skipped: message.skipped,
        ignored: message.ignored,
      };
    }
  }

  async detach(): Promise<void> {
    this.detached = true;
    this.rejectPending(new Error('ingestion parser thread released'));
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    for (const stream of this.streams.values()) await stream.return?.().catch(() => undefined);
    this.streams.clear();
  }

  private next(): Promise<ParserThreadMessage> {
    const ready = this.queue.shift();
    if (ready) return Promise.resolve(ready);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiter = () => {
        const message = this.queue.shift();
        if (message) resolve(message);
        else reject(this.failure ?? new Error('ingestion parser thread stopped'));
      };
    });
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  private fail(error: Error): void {
    this.broken = true;
    this.failure ??= error;
    this.rejectPending(this.failure);
    this.wake();
  }

  private rejectPending(error: Error): void {
    for (const pending of this.resolving.values()) pending.reject(error);
    this.resolving.clear();
  }

  private post(message: MainThreadMessage, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }

  /** Data requests are served here; batches and the end are queued for `batches()`. */
  private async receive(message: ParserThreadMessage): Promise<void> {
    if (message.type === 'open' || message.type === 'pull') {
      await this.serve(message.type, message.stream);
      return;
    }
    if (message.type === 'close') {
      await this.streams.get(message.stream)?.return?.();
      this.streams.delete(message.stream);
      return;
    }
    if (message.type === 'resolved' || message.type === 'resolve_failed') {
      const pending = this.resolving.get(message.request);
      this.resolving.delete(message.request);
      if (message.type === 'resolved')
        pending?.resolve({ data: Buffer.from(message.copy), rows: message.rows });
      else pending?.reject(new Error(`normalizing re-sightings failed: ${message.message}`));
      return;
    }
    if (message.type === 'failed' && !message.code) this.broken = true;
    this.queue.push(message);
    this.wake();
  }

  private async serve(kind: 'open' | 'pull', stream: number): Promise<void> {
    try {
      let reader = this.streams.get(stream);
      if (kind === 'open' || !reader) {
        reader = this.source.open()[Symbol.asyncIterator]();
        this.streams.set(stream, reader);
      }
      const next = await reader.next();
      if (next.done) {
        this.streams.delete(stream);
        this.post({ type: 'end', stream });
        return;
      }
      const chunk = next.value;
      // Copied (~20 ms per 100 MB): a source may keep and reuse the bytes it yields.
      const data = copiedArrayBuffer(
        typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk,
      );
      this.post({ type: 'chunk', stream, data }, [data]);
    } catch (error) {
      this.streams.delete(stream);
      const errno = (error as { code?: unknown } | null)?.code;
      this.post({
        type: 'read_failed',
        stream,
        message: error instanceof Error ? error.message : String(error),
        ...(typeof errno === 'string' ? { errno } : {}),
      });
    }
  }
}

/** The thread's failure as an error of this thread: a parse error, a read error or a bug. */
function parseFailure(message: Extract<ParserThreadMessage, { type: 'failed' }>): Error {
  if (message.code) {
    return new ReportParseError(
      message.code as ReportParseErrorCode,
      message.message,
      message.details,
    );
  }
  if (message.read) return new StoredReportReadError(message.message, message.read.errno);
  return new Error(message.message);
}
