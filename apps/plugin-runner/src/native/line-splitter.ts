/**
 * Splits a child's output into lines, each cut at `maxLineLength` characters (the rest of an
 * over-long line is dropped), so a plugin cannot make the runner buffer without bound.
 */
export class LineSplitter {
  private pending = '';
  private overflowing = false;

  constructor(
    private readonly maxLineLength: number,
    private readonly onLine: (line: string) => void,
  ) {}

  push(chunk: Buffer | string): void {
    let text = chunk.toString();
    for (;;) {
      const newline = text.indexOf('\n');
      if (newline === -1) break;
      this.append(text.slice(0, newline));
      const line = this.pending;
      this.pending = '';
      this.overflowing = false;
      this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      text = text.slice(newline + 1);
    }
    this.append(text);
  }

  /** What is buffered without a newline yet (the handshake check reports it on time-out). */
  get partial(): string {
    return this.pending;
  }

  private append(text: string): void {
    if (this.overflowing) return;
    const room = this.maxLineLength - this.pending.length;
    if (text.length > room) {
      this.pending += text.slice(0, room);
      this.overflowing = true;
    } else {
      this.pending += text;
    }
  }
}
