import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ReportChunk, ReportParseError, ReportParseErrorCode, ReportSource } from '../parsing';
import {
  MainThreadMessage,
  copiedArrayBuffer,
  ParserThreadInput,
  ParserThreadMessage,
} from './parser-thread.protocol';

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
  /** COPY text (see finding-row.ts). */
  copy: Buffer;
}

/**
 * V8 young generation of the parser thread. Parsing allocates a short-lived object graph per
 * result; measured per 100k results (84.5 MB): 16 MiB 3.5–3.7 CPU-s, 64–512 MiB 2.1–2.6 CPU-s
 * (within noise of each other); the worker's peak RSS stays ≤ 340 MiB for a 152 MB report.
 */
const YOUNG_GENERATION_MB = 192;
/** A runaway report cannot take the worker down: the thread dies with ERR_WORKER_OUT_OF_MEMORY. */
const OLD_GENERATION_MB = 1024;

/**
 * The parser thread's script: the bundled `ingest-parser.js` next to the worker bundle, or,
 * when running from TypeScript sources (tests, benchmarks), this directory's entry through
 * @swc-node/register.
 */
function threadScript(): { file: string; eval: boolean; env: NodeJS.ProcessEnv } {
  const bundled = join(__dirname, 'ingest-parser.js');
  if (existsSync(bundled)) return { file: bundled, eval: false, env: process.env };
  const entry = join(__dirname, 'parser-thread.entry.ts');
  return {
    file: `require('@swc-node/register'); require(${JSON.stringify(entry)});`,
    eval: true,
    env: {
      ...process.env,
      SWC_NODE_PROJECT:
        process.env.SWC_NODE_PROJECT ?? join(__dirname, '../../../../../../tsconfig.base.json'),
    },
  };
}

/** A parser thread: spawned on demand, reused for the next report when one ends cleanly. */
function spawnParserThread(): Worker {
  const script = threadScript();
  const worker = new Worker(script.file, {
    eval: script.eval,
    env: script.env,
    resourceLimits: {
      maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
      maxOldGenerationSizeMb: OLD_GENERATION_MB,
    },
  });
  // Errors are handled per report (ParserThreadJob) or by `exit`; never an unhandled event.
  worker.on('error', () => undefined);
  return worker;
}

/**
 * Runs the parse + normalize + encode half of ingestion on worker threads, so that it overlaps
 * the database writes done on the main thread (and gets its own GC tuning without process
 * flags). Threads are kept for the next report (a warm JIT; no start-up per report); one that
 * was abandoned mid-report (error, cancellation, failed write) is terminated instead.
 */
export class ParserThreadPool {
  private readonly idle: Worker[] = [];
  private closed = false;

  /** Parses `source` on a thread; yields its batches, at most `input.ahead` before consumed. */
  async *run(source: ReportSource, input: ParserThreadInput): AsyncGenerator<EncodedBatch> {
    const worker = this.idle.pop() ?? this.spawn();
    worker.ref();
    const job = new ParserThreadJob(worker, source);
    let clean = false;
    try {
      job.start(input);
      yield* job.batches();
      clean = true;
    } catch (error) {
      clean = error instanceof ReportParseError;
      throw error;
    } finally {
      await job.detach();
      if (clean && !job.broken && !this.closed) {
        // A parked thread does not keep the process alive.
        worker.unref();
        this.idle.push(worker);
      } else {
        await worker.terminate();
      }
    }
  }

  /**
   * Terminates the parked threads; a report still being parsed finishes, and its thread is
   * terminated instead of parked (so is any started later).
   */
  private spawn(): Worker {
    const worker = spawnParserThread();
    // A parked thread that dies (it should not) is never handed out again.
    worker.once('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }
}

/** The main thread's side of one report on a parser thread. */
class ParserThreadJob {
  private readonly streams = new Map<number, AsyncIterator<ReportChunk>>();
  private readonly queue: ParserThreadMessage[] = [];
  private waiter: (() => void) | undefined;
  private failure: Error | undefined;
  /** The thread died or failed outside a report's own parse error. */
  broken = false;
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

  async *batches(): AsyncGenerator<EncodedBatch> {
    for (;;) {
      const message = await this.next();
      if (message.type === 'done') return;
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
        copy: Buffer.from(message.copy),
      };
    }
  }

  async detach(): Promise<void> {
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
    this.wake();
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
      this.post({
        type: 'read_failed',
        stream,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

function parseFailure(message: Extract<ParserThreadMessage, { type: 'failed' }>): Error {
  if (message.code) {
    return new ReportParseError(
      message.code as ReportParseErrorCode,
      message.message,
      message.details,
    );
  }
  return new Error(message.message);
}
