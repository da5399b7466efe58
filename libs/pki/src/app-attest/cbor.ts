/**
 * A small, bounded CBOR (RFC 8949) decoder for attestation objects. It reads what App Attest
 * uses and refuses everything else:
 * - major types 0/1 (integers up to 2^53 - 1), 2 (byte strings), 3 (UTF-8 text strings),
 *   4 (arrays), 5 (maps with text or integer keys, no duplicates), and the simple values
 *   false, true and null;
 * - refused: indefinite lengths, tags, floats, other simple values, reserved additional
 *   information, nesting deeper than `maxDepth`, any length beyond the remaining input, and
 *   trailing bytes after the single top-level item.
 * Nothing is allocated before its length has been checked against the remaining input.
 */
export type CborValue =
  number | string | boolean | null | Buffer | CborValue[] | Map<string | number, CborValue>;

export class CborError extends Error {
  constructor(message: string) {
    super(`cbor: ${message}`);
    this.name = 'CborError';
  }
}

export interface CborOptions {
  /** Deepest nesting of arrays and maps (the top-level item is depth 1). Default 8. */
  maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 8;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes exactly one CBOR item filling the whole input. */
export function decodeCbor(input: Buffer, options: CborOptions = {}): CborValue {
  const reader = new CborReader(input, options.maxDepth ?? DEFAULT_MAX_DEPTH);
  const value = reader.item(1);
  if (reader.offset !== input.length) throw new CborError('trailing bytes after the item');
  return value;
}

class CborReader {
  offset = 0;

  constructor(
    private readonly input: Buffer,
    private readonly maxDepth: number,
  ) {}

  private get remaining(): number {
    return this.input.length - this.offset;
  }

  private byte(): number {
    if (this.remaining < 1) throw new CborError('truncated input');
    return this.input[this.offset++];
  }

  /** The argument of a head: the value in the additional information or the bytes after it. */
  private argument(info: number): number {
    if (info < 24) return info;
    if (info === 31) throw new CborError('indefinite lengths are not accepted');
    if (info > 27) throw new CborError(`reserved additional information ${info}`);
    const size = 1 << (info - 24);
    if (this.remaining < size) throw new CborError('truncated argument');
    let value = 0;
    for (let i = 0; i < size; i++) {
      value = value * 256 + this.input[this.offset + i];
      if (value > Number.MAX_SAFE_INTEGER) throw new CborError('integer too large');
    }
    this.offset += size;
    return value;
  }

  private bytes(length: number): Buffer {
    if (length > this.remaining) throw new CborError('length beyond the input');
    const out = this.input.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  item(depth: number): CborValue {
    const head = this.byte();
    const major = head >> 5;
    const info = head & 0x1f;
    switch (major) {
      case 0:
        return this.argument(info);
      case 1:
        return -1 - this.argument(info);
      case 2:
        return Buffer.from(this.bytes(this.argument(info)));
      case 3:
        return this.text(this.argument(info));
      case 4:
        return this.array(this.argument(info), depth);
      case 5:
        return this.map(this.argument(info), depth);
      case 6:
        throw new CborError('tags are not accepted');
      default:
        return this.simple(info);
    }
  }

  private text(length: number): string {
    try {
      return utf8.decode(this.bytes(length));
    } catch (error) {
      if (error instanceof CborError) throw error;
      throw new CborError('text string is not valid UTF-8');
    }
  }

  private container(count: number, depth: number, perItem: number): void {
    if (depth > this.maxDepth) throw new CborError(`nesting deeper than ${this.maxDepth}`);
    // Every item takes at least one byte: a count beyond that cannot be real.
    if (count * perItem > this.remaining) throw new CborError('item count beyond the input');
  }

  private array(count: number, depth: number): CborValue[] {
    this.container(count, depth, 1);
    const out: CborValue[] = [];
    for (let i = 0; i < count; i++) out.push(this.item(depth + 1));
    return out;
  }

  private map(count: number, depth: number): Map<string | number, CborValue> {
    this.container(count, depth, 2);
    const out = new Map<string | number, CborValue>();
    for (let i = 0; i < count; i++) {
      const key = this.item(depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number') {
        throw new CborError('map keys must be text strings or integers');
      }
      if (out.has(key)) throw new CborError('duplicate map key');
      out.set(key, this.item(depth + 1));
    }
    return out;
  }

  private simple(info: number): CborValue {
    if (info === 20) return false;
    if (info === 21) return true;
    if (info === 22) return null;
    if (info === 31) throw new CborError('indefinite lengths are not accepted');
    throw new CborError('floats and other simple values are not accepted');
  }
}
