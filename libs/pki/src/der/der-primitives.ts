import { DerTag } from './der-tag';
import { tlv } from './der-tlv';

const DER_NULL = Buffer.from([DerTag.NULL, 0x00]);
const DER_TRUE = Buffer.from([DerTag.BOOLEAN, 0x01, 0xff]);
const DER_FALSE = Buffer.from([DerTag.BOOLEAN, 0x01, 0x00]);

export function derNull(): Buffer {
  return DER_NULL;
}

export function boolean(value: boolean): Buffer {
  return value ? DER_TRUE : DER_FALSE;
}

/** Minimal two's-complement contents of a bigint. */
function bigintContent(value: bigint): Buffer {
  if (value === 0n) return Buffer.from([0]);
  const negative = value < 0n;
  let hex = (negative ? -value - 1n : value).toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if (negative) for (let i = 0; i < bytes.length; i++) bytes[i] = ~bytes[i] & 0xff;
  const signBitSet = (bytes[0] & 0x80) !== 0;
  if (negative !== signBitSet)
    bytes = Buffer.concat([Buffer.from([negative ? 0xff : 0x00]), bytes]);
  return bytes;
}

/** Contents of a non-negative integer given as big-endian magnitude bytes. */
export function unsignedIntegerContent(magnitude: Buffer): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const trimmed = magnitude.subarray(start);
  if (trimmed.length === 0) return Buffer.from([0]);
  if ((trimmed[0] & 0x80) === 0) return trimmed;
  return Buffer.concat([Buffer.from([0]), trimmed]);
}

/**
 * INTEGER. A bigint or number is encoded with its sign; a Buffer is read as an unsigned
 * big-endian magnitude (a 0x00 is prepended when its high bit is set).
 */
export function integer(value: bigint | number | Buffer): Buffer {
  if (Buffer.isBuffer(value)) return tlv(DerTag.INTEGER, unsignedIntegerContent(value));
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError('integer must be a safe integer');
  }
  return tlv(DerTag.INTEGER, bigintContent(BigInt(value)));
}

export function enumerated(value: number): Buffer {
  return tlv(DerTag.ENUMERATED, bigintContent(BigInt(value)));
}

export function octetString(content: Buffer): Buffer {
  return tlv(DerTag.OCTET_STRING, content);
}

/** BIT STRING of whole bytes (unused bits = 0), e.g. keys and signatures. */
export function bitString(content: Buffer, unusedBits = 0): Buffer {
  if (unusedBits < 0 || unusedBits > 7 || (content.length === 0 && unusedBits !== 0)) {
    throw new RangeError('invalid unused bit count');
  }
  return tlv(DerTag.BIT_STRING, Buffer.from([unusedBits]), content);
}

/**
 * BIT STRING for a NamedBitList (X.680 / DER): bit 0 is the most significant bit of the
 * first byte, trailing zero bits are removed.
 */
export function namedBitString(bits: readonly number[]): Buffer {
  if (bits.length === 0) return bitString(Buffer.alloc(0));
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[Math.floor(bit / 8)] |= 0x80 >> (bit % 8);
  return bitString(bytes, 7 - (highest % 8));
}
