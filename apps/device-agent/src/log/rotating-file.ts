import { closeSync, fstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/**
 * An append-only log file bounded in size: when a line would take it past `maxBytes`, it becomes
 * `<file>.1` (older ones shift to `.2` ... `.<keep>`, the oldest is removed) and a new file starts.
 * Files are created 0600 (they may name the serial and request id, never a secret).
 */
export class RotatingFile {
  private fd: number | null = null;
  private size = 0;

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
    private readonly keep: number,
  ) {}

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.fd === null) this.open();
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    writeSync(this.fd as number, line);
    this.size += bytes;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): void {
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.close();
    rmSync(`${this.path}.${this.keep}`, { force: true });
    for (let n = this.keep - 1; n >= 1; n -= 1) {
      try {
        renameSync(`${this.path}.${n}`, `${this.path}.${n + 1}`);
      } catch {
        // that generation does not exist yet
      }
    }
    if (this.keep >= 1) renameSync(this.path, `${this.path}.1`);
    else rmSync(this.path, { force: true });
    this.open();
  }
}
