/** A TPM wire structure that does not parse: the caller answers with its own refusal. */
export class TpmFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TpmFormatError';
  }
}

/** Big-endian reader over TPM marshalled structures; every read is bounds-checked. */
export class TpmReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  get position(): number {
    return this.offset;
  }

  get remaining(): number {
    return this.buffer.length - this.offset;
  }

  u8(): number {
    this.need(1);
    return this.buffer.readUInt8(this.offset++);
  }

  u16(): number {
    this.need(2);
    const value = this.buffer.readUInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  u32(): number {
    this.need(4);
    const value = this.buffer.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  u64(): bigint {
    this.need(8);
    const value = this.buffer.readBigUInt64BE(this.offset);
    this.offset += 8;
    return value;
  }

  bytes(length: number): Buffer {
    this.need(length);
    const value = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }

  /** A TPM2B: a 16-bit size followed by that many bytes. */
  sized(max = 0xffff): Buffer {
    const length = this.u16();
    if (length > max) throw new TpmFormatError(`sized buffer of ${length} bytes (at most ${max})`);
    return this.bytes(length);
  }

  /** Bytes consumed so far from `start`. */
  slice(start: number): Buffer {
    return this.buffer.subarray(start, this.offset);
  }

  end(what: string): void {
    if (this.remaining !== 0)
      throw new TpmFormatError(`${this.remaining} trailing bytes after ${what}`);
  }

  private need(length: number): void {
    if (this.offset + length > this.buffer.length)
      throw new TpmFormatError('structure is truncated');
  }
}

export function u16(value: number): Buffer {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
}

export function u32(value: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
}

/** A TPM2B: 16-bit size, then the bytes. */
export function sized(value: Buffer): Buffer {
  return Buffer.concat([u16(value.length), value]);
}
