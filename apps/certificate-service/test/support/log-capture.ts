import { Writable } from 'node:stream';

export type LogLine = Record<string, unknown> & { level: string; msg?: string };

/** A pino destination that keeps every JSON line for assertions. */
export class LogCapture extends Writable {
  private readonly chunks: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(chunk.toString());
    callback();
  }

  lines(): LogLine[] {
    return this.chunks
      .join('')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as LogLine);
  }

  /** Access lines (msg `request`) for one request id. */
  accessLines(requestId?: string): LogLine[] {
    return this.lines().filter(
      (l) => l.msg === 'request' && (requestId === undefined || l.request_id === requestId),
    );
  }

  clear(): void {
    this.chunks.length = 0;
  }
}
