import type { MessagePort } from 'node:worker_threads';
import { stagedBatch } from '../../findings/ingestion/finding-row';
import {
  fileReportSource,
  readReport,
  ReportChunk,
  ReportParseError,
  ReportSource,
} from '../parsing';
import {
  MainThreadMessage,
  ownArrayBuffer,
  ParserThreadInput,
  ParserThreadMessage,
} from './parser-thread.protocol';

type ChunkReply = Extract<MainThreadMessage, { stream: number }>;

let nextStream = 0;

/**
 * One report on the parser thread: a ReportSource served by the main thread, the read loop,
 * and the credit that keeps it at most `input.ahead` batches ahead of the database writes.
 */
class ParserJob {
  private readonly replies = new Map<number, (reply: ChunkReply) => void>();
  private credits: number;
  private creditWaiter: (() => void) | undefined;

  constructor(
    private readonly port: MessagePort,
    private readonly input: ParserThreadInput,
  ) {
    this.credits = input.ahead;
  }

  async run(): Promise<void> {
    try {
      let index = 0;
      const source = this.input.path ? fileReportSource(this.input.path) : this.remoteSource();
      const batches = readReport(source, this.input.format, this.input.defaults, {
        batchSize: this.input.batchSize,
      });
      for await (const batch of batches) {
        const current = index;
        index += 1;
        if (current < this.input.skipBelow) continue;
        await this.credit();
        const staged = stagedBatch(batch.findings);
        const copy = ownArrayBuffer(staged.data);
        this.send(
          {
            type: 'batch',
            index: current,
            results: batch.findings.length,
            rows: staged.rows,
            format: batch.run.format,
            scanner: batch.run.scanner,
            scannerVersion: batch.run.scanner_version ?? null,
            copy,
          },
          [copy],
        );
      }
      this.send({ type: 'done', batches: index });
    } catch (error) {
      this.send(
        error instanceof ReportParseError
          ? { type: 'failed', code: error.code, message: error.message, details: error.details }
          : {
              type: 'failed',
              code: null,
              message: error instanceof Error ? error.message : String(error),
            },
      );
    }
  }

  private send(message: ParserThreadMessage, transfer: ArrayBuffer[] = []): void {
    this.port.postMessage(message, transfer);
  }

  receive(message: MainThreadMessage): void {
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
          throw new Error(`reading the stored report failed: ${reply.message}`);
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

/**
 * Entry of the parser thread (see ingest-parser.ts and ParserThreadPool): runs the reports it
 * is given one after another; the main thread terminates it when a report is abandoned.
 */
export function runParserThread(port: MessagePort): void {
  let current: ParserJob | undefined;
  port.on('message', (message: MainThreadMessage) => {
    if (message.type !== 'start') {
      current?.receive(message);
      return;
    }
    const job = new ParserJob(port, message.input);
    current = job;
    void job.run().finally(() => {
      if (current === job) current = undefined;
    });
  });
}
