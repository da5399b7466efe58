import { PkiError, type PkiErrorCode } from '../pki.errors';

const UINT64_MAX = (1n << 64n) - 1n;

/**
 * Writer of the SSH wire encoding (RFC 4251 section 5): byte, uint32, uint64, string and
 * mpint into one growing buffer (KRLs of 100 000 serials are written without a copy per item).
 */
export class SshWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(initialBytes = 256) {
    this.buffer = Buffer.allocUnsafe(initialBytes);
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  byte(value: number): this {
    this.reserve(1);
    this.buffer[this.length++] = value & 0xff;
    return this;
  }

  uint32(value: number): this {
    this.reserve(4);
    this.buffer.writeUInt32BE(value >>> 0, this.length);
    this.length += 4;
    return this;
  }

  uint64(value: bigint): this {
    if (value < 0n || value > UINT64_MAX) throw new RangeError('uint64 out of range');
    this.reserve(8);
    this.buffer.writeBigUInt64BE(value, this.length);
    this.length += 8;
    return this;
  }

  /** Bytes without a length prefix. */
  raw(bytes: Buffer): this {
    this.reserve(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
    return this;
  }

  /** `string`: uint32 length then the bytes (text is written as UTF-8). */
  string(value: Buffer | string): this {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    this.uint32(bytes.length);
    return this.raw(bytes);
  }

  /** `string` whose content another writer produced. */
  nested(writer: SshWriter): this {
    return this.string(writer.view());
  }

  /** `mpint` of a non-negative big-endian magnitude: minimal, with a 0x00 before a high bit. */
  mpint(magnitude: Buffer): this {
    let start = 0;
    while (start < magnitude.length && magnitude[start] === 0) start++;
    const digits = magnitude.subarray(start);
    if (digits.length === 0) return this.uint32(0);
    const pad = digits[0] & 0x80 ? 1 : 0;
    this.uint32(digits.length + pad);
    if (pad) this.byte(0);
    return this.raw(digits);
  }

  get size(): number {
    return this.length;
  }

  /** The bytes written so far (shares memory with the writer until the next write). */
  view(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** A copy of the bytes written. */
  toBuffer(): Buffer {
    return Buffer.from(this.view());
  }
}

/** Reader of the SSH wire encoding; every overrun or malformed field throws `errorCode`. */
export class SshReader {
  private offset = 0;

  constructor(
    private readonly data: Buffer,
    private readonly errorCode: PkiErrorCode,
    private readonly what: string,
  ) {}

  private fail(problem: string): never {
    throw new PkiError(this.errorCode, `${this.what} is malformed: ${problem}`);
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.data.length) this.fail('truncated');
  }

  byte(): number {
    this.need(1);
    return this.data[this.offset++];
  }

  uint32(): number {
    this.need(4);
    const value = this.data.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  uint64(): bigint {
    this.need(8);
    const value = this.data.readBigUInt64BE(this.offset);
    this.offset += 8;
    return value;
  }

  string(): Buffer {
    const length = this.uint32();
    this.need(length);
    const value = this.data.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** A `string` holding printable ASCII (key types, curve names). */
  name(): string {
    const bytes = this.string();
    if (!/^[\x21-\x7e]{1,64}$/.test(bytes.toString('latin1'))) this.fail('bad name');
    return bytes.toString('latin1');
  }

  /** A non-negative `mpint`, returned as its magnitude without leading zero octets. */
  mpint(): Buffer {
    const bytes = this.string();
    if (bytes.length === 0) return bytes;
    if (bytes[0] & 0x80) this.fail('negative mpint');
    if (bytes[0] === 0 && (bytes.length === 1 || (bytes[1] & 0x80) === 0)) {
      this.fail('mpint with a needless leading zero');
    }
    return bytes[0] === 0 ? bytes.subarray(1) : bytes;
  }

  get remaining(): number {
    return this.data.length - this.offset;
  }

  /** Refuses trailing bytes. */
  end(): void {
    if (this.remaining !== 0) this.fail('trailing bytes');
  }
}
