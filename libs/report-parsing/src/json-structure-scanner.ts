import { malformedAt, ReportParseError } from './report-parse.errors';

/**
 * Deepest nesting of arrays and objects a report may have (serde_json's default). SARIF and
 * SonarQube need about 15 levels; deeper documents would overflow the stack of the recursive
 * `JSON.stringify` (and PostgreSQL's jsonb input) later on.
 */
export const MAX_NESTING = 128;

/**
 * What to do with a value that starts inside the descended containers:
 * - `descend`: walk into the object/array (its members/elements are offered one by one);
 * - `capture`: find the end of the value and hand its raw bytes to `onCapture`;
 * - `skip`: find the end of the value and drop it (nothing retained).
 */
export type ScanAction = 'descend' | 'capture' | 'skip';

/** One descended container. */
export interface ScanFrame {
  readonly container: 'object' | 'array';
  /** Key of the current member (objects). */
  key: string | undefined;
  /** Index of the current element (arrays) / member (objects). */
  index: number;
}

export interface ScanHandler {
  /** A value starts at absolute byte `offset`; `first` is its first byte. */
  onValue(frames: readonly ScanFrame[], first: number, offset: number): ScanAction;
  /** A captured value ended. `raw` may share memory with the input chunk. */
  onCapture(frames: readonly ScanFrame[], raw: Buffer, offset: number): void;
  /** A descended container is closing; it is still the last frame. */
  onClose(frames: readonly ScanFrame[]): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MAX_KEY_BYTES = 64 * 1024;
const BOM = [0xef, 0xbb, 0xbf];
/** UTF-16 byte order marks (UTF-32 LE starts with the UTF-16 LE one). */
const UTF16_BOMS = [
  [0xff, 0xfe],
  [0xfe, 0xff],
];

const EXPECT_VALUE = 0;
const EXPECT_VALUE_OR_CLOSE = 1;
const EXPECT_KEY_OR_CLOSE = 2;
const EXPECT_KEY = 3;
const EXPECT_COLON = 4;
const AFTER_VALUE = 5;
const DONE = 6;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isValueStart(c: number): boolean {
  return (
    c === OPEN_OBJECT ||
    c === OPEN_ARRAY ||
    c === QUOTE ||
    c === 0x2d ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x74 ||
    c === 0x66 ||
    c === 0x6e
  );
}

function describe(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16)}`;
}

/**
 * Incremental, chunk-boundary-safe JSON scanner. It validates the structure of the
 * containers it descends into and only finds the *extent* of other values (strings are
 * skipped with `indexOf`, brackets are matched); captured values are validated later by
 * `JSON.parse`. Memory: the descended path plus the value being captured.
 */
export class JsonStructureScanner {
  private offset = 0;
  private bomPending = true;
  private state = EXPECT_VALUE;
  private readonly frames: ScanFrame[] = [];
  private inString = false;
  private backslashCarry = 0;
  private segmentStart = 0;
  private inKey = false;
  private keyStart = 0;
  private keyPieces: Buffer[] = [];
  private keyBytes = 0;
  private capturing = false;
  private capRetain = false;
  private capLiteral = false;
  private capStart = 0;
  private capPieces: Buffer[] = [];
  private readonly capStack: number[] = [];

  constructor(private readonly handler: ScanHandler) {}

  /** Bytes consumed so far. */
  get position(): number {
    return this.offset;
  }

  write(chunk: Buffer): void {
    const n = chunk.length;
    let i = 0;
    if (this.offset === 0 && n > 0) refuseUtf16(chunk);
    while (this.bomPending && i < n) {
      // A UTF-8 byte order mark may open the document (possibly split across chunks).
      const at = this.offset + i;
      if (chunk[i] !== BOM[at]) {
        if (at > 0) throw malformedAt(0, 'invalid byte order mark');
        this.bomPending = false;
        break;
      }
      i += 1;
      if (at === BOM.length - 1) this.bomPending = false;
    }
    this.segmentStart = 0;
    while (i < n) {
      if (this.capturing) i = this.scanCapture(chunk, i);
      else if (this.inKey) i = this.scanKey(chunk, i);
      else i = this.step(chunk, i);
    }
    if (this.capturing && this.capRetain) this.capPieces.push(chunk.subarray(this.segmentStart));
    if (this.inKey) {
      this.keyPieces.push(chunk.subarray(this.segmentStart));
      this.keyBytes += n - this.segmentStart;
      if (this.keyBytes > MAX_KEY_BYTES) throw malformedAt(this.keyStart, 'property name too long');
    }
    this.offset += n;
  }

  /** Signals the end of input; throws when the document is incomplete. */
  end(): void {
    if (this.capturing || this.inKey || this.state !== DONE) {
      throw malformedAt(this.offset, 'unexpected end of input (truncated report?)');
    }
  }

  private step(chunk: Buffer, i: number): number {
    const c = chunk[i];
    if (isWhitespace(c)) return i + 1;
    switch (this.state) {
      case EXPECT_VALUE_OR_CLOSE:
        if (c === CLOSE_ARRAY) return this.close(c, i);
        return this.startValue(chunk, i);
      case EXPECT_VALUE:
        return this.startValue(chunk, i);
      case EXPECT_KEY_OR_CLOSE:
        if (c === CLOSE_OBJECT) return this.close(c, i);
        return this.startKey(c, i);
      case EXPECT_KEY:
        return this.startKey(c, i);
      case EXPECT_COLON:
        if (c !== COLON) throw malformedAt(this.offset + i, `expected ':', found ${describe(c)}`);
        this.state = EXPECT_VALUE;
        return i + 1;
      case AFTER_VALUE:
        return this.afterValueByte(c, i);
      default:
        throw malformedAt(
          this.offset + i,
          `unexpected ${describe(c)} after the end of the document`,
        );
    }
  }

  private afterValueByte(c: number, i: number): number {
    const top = this.frames[this.frames.length - 1];
    if (c === COMMA) {
      top.index += 1;
      this.state = top.container === 'object' ? EXPECT_KEY : EXPECT_VALUE;
      return i + 1;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) return this.close(c, i);
    const closer = top.container === 'object' ? "'}'" : "']'";
    throw malformedAt(this.offset + i, `expected ',' or ${closer}, found ${describe(c)}`);
  }

  private startKey(c: number, i: number): number {
    if (c !== QUOTE) {
      throw malformedAt(this.offset + i, `expected a property name, found ${describe(c)}`);
    }
    this.inKey = true;
    this.inString = true;
    this.backslashCarry = 0;
    this.keyStart = this.offset + i;
    this.segmentStart = i;
    this.keyPieces = [];
    this.keyBytes = 0;
    return i + 1;
  }

  private scanKey(chunk: Buffer, i: number): number {
    const end = this.findStringEnd(chunk, i);
    if (end < 0) return chunk.length;
    const tail = chunk.subarray(this.segmentStart, end);
    const raw = this.keyPieces.length > 0 ? Buffer.concat([...this.keyPieces, tail]) : tail;
    this.keyPieces = [];
    this.inKey = false;
    let key: unknown;
    try {
      key = JSON.parse(raw.toString('utf8'));
    } catch {
      throw malformedAt(this.keyStart, 'invalid property name');
    }
    this.frames[this.frames.length - 1].key = String(key);
    this.state = EXPECT_COLON;
    return end;
  }

  private startValue(chunk: Buffer, i: number): number {
    const c = chunk[i];
    if (!isValueStart(c))
      throw malformedAt(this.offset + i, `expected a value, found ${describe(c)}`);
    const action = this.handler.onValue(this.frames, c, this.offset + i);
    if (action === 'descend' && (c === OPEN_OBJECT || c === OPEN_ARRAY)) {
      this.checkNesting(this.frames.length + 1, i);
      const container = c === OPEN_OBJECT ? 'object' : 'array';
      this.frames.push({ container, key: undefined, index: 0 });
      this.state = c === OPEN_OBJECT ? EXPECT_KEY_OR_CLOSE : EXPECT_VALUE_OR_CLOSE;
      return i + 1;
    }
    this.capturing = true;
    this.capRetain = action !== 'skip';
    this.capStart = this.offset + i;
    this.segmentStart = i;
    this.capPieces = [];
    this.capStack.length = 0;
    this.capLiteral = false;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      this.checkNesting(this.frames.length + 1, i);
      this.capStack.push(c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY);
    } else if (c === QUOTE) {
      this.inString = true;
      this.backslashCarry = 0;
    } else this.capLiteral = true;
    return i + 1;
  }

  private scanCapture(chunk: Buffer, from: number): number {
    const n = chunk.length;
    const stack = this.capStack;
    let i = from;
    while (i < n) {
      if (this.inString) {
        const end = this.findStringEnd(chunk, i);
        if (end < 0) return n;
        if (stack.length === 0) return this.finishCapture(chunk, end);
        i = end;
        continue;
      }
      const c = chunk[i];
      if (this.capLiteral) {
        if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isWhitespace(c)) {
          return this.finishCapture(chunk, i);
        }
      } else if (c === QUOTE) {
        this.inString = true;
        this.backslashCarry = 0;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.checkNesting(this.frames.length + stack.length + 1, i);
        stack.push(c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (stack.pop() !== c) throw malformedAt(this.offset + i, `unexpected ${describe(c)}`);
        if (stack.length === 0) return this.finishCapture(chunk, i + 1);
      }
      i += 1;
    }
    return n;
  }

  /**
   * Finds the closing quote of the string being scanned, starting at `from`. Returns the
   * index after it, or -1 when the string continues in the next chunk. A quote is escaped
   * when an odd run of backslashes precedes it (the run may span chunks).
   */
  private findStringEnd(chunk: Buffer, from: number): number {
    let q = chunk.indexOf(QUOTE, from);
    while (q !== -1) {
      let j = q - 1;
      while (j >= 0 && chunk[j] === BACKSLASH) j -= 1;
      const run = q - 1 - j + (j < 0 ? this.backslashCarry : 0);
      if ((run & 1) === 0) {
        this.inString = false;
        return q + 1;
      }
      q = chunk.indexOf(QUOTE, q + 1);
    }
    let j = chunk.length - 1;
    while (j >= 0 && chunk[j] === BACKSLASH) j -= 1;
    const trailing = chunk.length - 1 - j;
    this.backslashCarry = j < 0 ? this.backslashCarry + trailing : trailing;
    return -1;
  }

  private finishCapture(chunk: Buffer, end: number): number {
    this.capturing = false;
    this.capLiteral = false;
    if (this.capRetain) {
      const tail = chunk.subarray(this.segmentStart, end);
      const raw = this.capPieces.length > 0 ? Buffer.concat([...this.capPieces, tail]) : tail;
      this.capPieces = [];
      this.handler.onCapture(this.frames, raw, this.capStart);
    }
    this.valueDone();
    return end;
  }

  private close(c: number, i: number): number {
    const top = this.frames[this.frames.length - 1];
    const expected = top.container === 'object' ? CLOSE_OBJECT : CLOSE_ARRAY;
    if (c !== expected) throw malformedAt(this.offset + i, `unexpected ${describe(c)}`);
    this.handler.onClose(this.frames);
    this.frames.pop();
    this.valueDone();
    return i + 1;
  }

  private checkNesting(depth: number, i: number): void {
    if (depth <= MAX_NESTING) return;
    const offset = this.offset + i;
    throw new ReportParseError(
      'report_nesting_too_deep',
      `nesting deeper than ${MAX_NESTING} levels at byte ${offset}`,
      { offset, limit: MAX_NESTING },
    );
  }

  private valueDone(): void {
    this.state = this.frames.length === 0 ? DONE : AFTER_VALUE;
  }
}

/** A UTF-16 (or UTF-32) report is refused with its own code instead of as malformed JSON. */
export function refuseUtf16(chunk: Buffer): void {
  if (UTF16_BOMS.some(([a, b]) => chunk[0] === a && chunk[1] === b)) {
    throw new ReportParseError(
      'report_encoding_unsupported',
      'the report is UTF-16 or UTF-32 encoded (byte order mark); UTF-8 is expected',
    );
  }
}
