import type { MessagePort } from 'node:worker_threads';
import { stagedBatch, stagedResightings } from '../../findings/bulk-write/finding-row';
import {
  fileReportSource,
  memoFromCopyText,
  readReport,
  ReportChunk,
  ReportParseError,
  ReportSource,
  ResightedFinding,
  ResultMemo,
} from '@platform/report-parsing';
import {
  MainThreadMessage,
  ownArrayBuffer,
  ParserThreadInput,
  ParserThreadMessage,
} from './parser-thread.protocol';
import { markedReadErrors, StoredReportReadError } from './stored-report-read-error';
import { ReportRunCoverage, runCoverageOf } from '../../reports/report-coverage';

type ChunkReply = Extract<MainThreadMessage, { stream: number }>;

let nextStream = 0;

/**
 * One report on the parser thread: a ReportSource served by the main thread, the read loop,
 * and the credit that keeps it at most `input.ahead` batches ahead of the database writes.
 * The re-sightings of the last batches are kept until the main thread has written them, in
 * case some have to be normalized after all (`resolve`).
 */
class ParserJob {
  private readonly replies = new Map<number, (reply: ChunkReply) => void>();
  private readonly resighted = new Map<number, ResightedFinding[]>();
  private credits: number;
  private creditWaiter: (() => void) | undefined;
  private memo: Promise<ResultMemo | undefined> = Promise.resolve(undefined);
  private provideMemo: ((memo: ResultMemo | undefined) => void) | undefined;

  constructor(
    private readonly port: MessagePort,
    private readonly input: ParserThreadInput,
  ) {
    this.credits = input.ahead;
    if (input.memo) this.memo = new Promise((resolve) => (this.provideMemo = resolve));
  }

  async run(): Promise<void> {
    try {
      let index = 0;
      const source = markedReadErrors(
        this.input.path ? fileReportSource(this.input.path) : this.remoteSource(),
      );
      const runs = new Map<number, ReportRunCoverage>();
      const skipped = new Map<number, number>();
      const batches = readReport(source, this.input.format, this.input.defaults, {
        batchSize: this.input.batchSize,
        memo: () => this.memo,
        onRun: (run) => runs.set(run.run_index, runCoverageOf(run)),
      });
      for await (const batch of batches) {
        const current = index;
        index += 1;
        // Every batch, also those an earlier attempt wrote: the run's total is stored at the end.
        const notStored = countOf(batch.skipped);
        if (notStored > 0)
          skipped.set(batch.run.run_index, (skipped.get(batch.run.run_index) ?? 0) + notStored);
        if (current < this.input.skipBelow) continue;
        await this.credit();
        const staged = stagedBatch(batch.findings);
        const copy = ownArrayBuffer(staged.data);
        const transfer = [copy];
        let resighted: ArrayBuffer | null = null;
        let resightedRows = 0;
        if (batch.resighted.length > 0) {
          const encoded = stagedResightings(batch.resighted);
          resighted = ownArrayBuffer(encoded.data);
          resightedRows = encoded.rows;
          transfer.push(resighted);
          this.keep(current, batch.resighted);
        }
        this.send(
          {
            type: 'batch',
            index: current,
            results: batch.findings.length + batch.resighted.length,
            rows: staged.rows,
            format: batch.run.format,
            scanner: batch.run.scanner,
            scannerVersion: batch.run.scanner_version ?? null,
            revision: batch.run.revision ?? null,
            copy,
            facts: staged.facts,
            resighted,
            resightedRows,
            skipped: batch.skipped,
            ignored: batch.ignored,
          },
          transfer,
        );
      }
      this.send({ type: 'done', batches: index, runs: runsInOrder(runs, skipped) });
    } catch (error) {
      this.send(failedMessage(error));
    }
  }

  private send(message: ParserThreadMessage, transfer: ArrayBuffer[] = []): void {
    this.port.postMessage(message, transfer);
  }

  /**
   * Keeps batch `index`'s re-sightings: the main thread writes batch k - 1 while it takes
   * batch k, and the thread runs at most `ahead` batches ahead of that.
   */
  private keep(index: number, resighted: ResightedFinding[]): void {
    this.resighted.set(index, resighted);
    for (const kept of this.resighted.keys())
      if (kept < index - this.input.ahead - 2) this.resighted.delete(kept);
  }

  private resolve(message: Extract<MainThreadMessage, { type: 'resolve' }>): void {
    try {
      const kept = this.resighted.get(message.index);
      if (!kept) throw new Error(`re-sightings of batch ${message.index} are no longer kept`);
      const wanted = new Set(message.findingIds);
      const staged = stagedBatch(
        kept.filter((r) => wanted.has(r.finding_id)).map((r) => r.normalize()),
      );
      const copy = ownArrayBuffer(staged.data);
      this.send({ type: 'resolved', request: message.request, copy, rows: staged.rows }, [copy]);
    } catch (error) {
      this.send({
        type: 'resolve_failed',
        request: message.request,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  receive(message: MainThreadMessage): void {
    if (message.type === 'memo') {
      this.provideMemo?.(
        message.data ? memoFromCopyText(Buffer.from(message.data).toString('utf8')) : undefined,
      );
      this.provideMemo = undefined;
      return;
    }
    if (message.type === 'resolve') {
      this.resolve(message);
      return;
    }
    if (message.type === 'credit') {
      this.credits += 1;
      const waiter = this.creditWaiter;
      this.creditWaiter = undefined;
      waiter?.();
      return;
    }
    if (message.type !== 'start') this.replies.get(message.stream)?.(message);
  }

  private credit(): Promise<void> {
    if (this.credits > 0) {
      this.credits -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.creditWaiter = () => {
        this.credits -= 1;
        resolve();
      };
    });
  }

  private reply(stream: number, request: ParserThreadMessage): Promise<ChunkReply> {
    return new Promise((resolve) => {
      this.replies.set(stream, resolve);
      this.send(request);
    });
  }

  /** The stored report, read through the main thread (a new stream per pass). */
  private remoteSource(): ReportSource {
    return {
      reopenable: true,
      open: () => this.pass(),
    };
  }

  private async *pass(): AsyncGenerator<ReportChunk> {
    const stream = nextStream;
    nextStream += 1;
    let ended = false;
    try {
      let reply = await this.reply(stream, { type: 'open', stream });
      for (;;) {
        if (reply.type === 'end') {
          ended = true;
          return;
        }
        if (reply.type === 'read_failed') {
          ended = true;
          throw new StoredReportReadError(
            `reading the stored report failed: ${reply.message}`,
            reply.errno,
          );
        }
        if (reply.type === 'chunk') yield Buffer.from(reply.data);
        reply = await this.reply(stream, { type: 'pull', stream });
      }
    } finally {
      this.replies.delete(stream);
      if (!ended) this.send({ type: 'close', stream });
    }
  }
}

function countOf(warnings: Record<string, number | undefined>): number {
  let total = 0;
  for (const code in warnings) total += warnings[code] ?? 0;
  return total;
}

/** The runs' coverage in run order, each with its results not stored. */
function runsInOrder(
  runs: Map<number, ReportRunCoverage>,
  skipped: Map<number, number>,
): ReportRunCoverage[] {
  return [...runs.keys()]
    .sort((a, b) => a - b)
    .map((runIndex) => {
      const run = runs.get(runIndex) as ReportRunCoverage;
      return { ...run, skipped: skipped.get(runIndex) ?? 0 };
    });
}

function failedMessage(error: unknown): ParserThreadMessage {
  if (error instanceof ReportParseError) {
    return {
      type: 'failed',
      code: error.code,
      message: error.message,
      details: error.details as Record<string, string | number> | undefined,
    };
  }
  return {
    type: 'failed',
    code: null,
    message: error instanceof Error ? error.message : String(error),
    ...(error instanceof StoredReportReadError
      ? { read: error.errno === undefined ? {} : { errno: error.errno } }
      : {}),
  };
}

/**
 * Entry of the parser thread (see ingest-parser.ts and ParserThreadPool): runs the reports it
 * is given one after another; the main thread terminates it when a report is abandoned. A
 * finished report stays addressable (its last batches may still need `resolve`) until the
 * next one starts.
 */
export function runParserThread(port: MessagePort): void {
  let current: ParserJob | undefined;
  port.on('message', (message: MainThreadMessage) => {
    if (message.type !== 'start') {
      current?.receive(message);
      return;
    }
    current = new ParserJob(port, message.input);
    void current.run();
  });
}
