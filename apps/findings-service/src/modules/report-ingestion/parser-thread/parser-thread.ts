import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ReportSource } from '@platform/report-parsing';
import type { StagedBatch } from '../../findings/bulk-write/finding-row';
import { EncodedBatch, ParserThreadJob } from './parser-thread-job';
import { ParserThreadInput } from './parser-thread.protocol';
import type { ReportRunCoverage } from '../../reports/report-coverage';

export type { EncodedBatch } from './parser-thread-job';

/**
 * V8 young generation of the parser thread: parsing allocates a short-lived object graph per
 * result, and Node's default leaves the thread scavenging (figures in docs/benchmarks.md).
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
 * One report on a pooled parser thread: its batches, the memo hand-over and the re-normalizing
 * of stale re-sightings; `release` parks or terminates the thread.
 */
export interface ParserRun {
  batches(): AsyncGenerator<EncodedBatch>;
  /** Every run's coverage, in run order, once `batches()` has ended (else empty). */
  coverage(): ReportRunCoverage[];
  provideMemo(data: Buffer | null): void;
  resolve(index: number, findingIds: string[]): Promise<StagedBatch>;
  /**
   * `clean`: no error outside the report's own parse error; the thread is parked for the next
   * report only if it also read the report to its end.
   */
  release(clean: boolean): Promise<void>;
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

  /** Starts parsing `source` on a thread; the caller must `release` the run. */
  acquire(source: ReportSource, input: ParserThreadInput): ParserRun {
    const worker = this.idle.pop() ?? this.spawn();
    worker.ref();
    const job = new ParserThreadJob(worker, source);
    job.start(input);
    let released = false;
    return {
      batches: () => job.batches(),
      coverage: () => job.runs,
      provideMemo: (data) => job.provideMemo(data),
      resolve: (index, ids) => job.resolve(index, ids),
      release: async (clean) => {
        if (released) return;
        released = true;
        await job.detach();
        // A thread stopped mid-report (cancelled, superseded, failed write) still has that
        // report's messages in flight: never reused.
        if (clean && job.ended && !job.broken && !this.closed) {
          // A parked thread does not keep the process alive.
          worker.unref();
          this.idle.push(worker);
        } else {
          await worker.terminate();
        }
      },
    };
  }

  private spawn(): Worker {
    const worker = spawnParserThread();
    // A parked thread that dies (it should not) is never handed out again.
    worker.once('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return worker;
  }

  /**
   * Terminates the parked threads; a report still being parsed finishes, and its thread is
   * terminated instead of parked (so is any started later).
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }
}
