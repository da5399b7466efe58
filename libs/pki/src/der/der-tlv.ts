import { contextTag, DerTag } from './der-tag';

/** Number of bytes the DER length field takes for `length` content bytes. */
export function lengthSize(length: number): number {
  if (length < 0x80) return 1;
  if (length < 0x100) return 2;
  if (length < 0x10000) return 3;
  if (length < 0x1000000) return 4;
  return 5;
}

/** Writes the DER length at `offset`; returns the offset after it. */
export function writeLength(target: Buffer, offset: number, length: number): number {
  if (length < 0x80) {
    target[offset] = length;
    return offset + 1;
  }
  const size = lengthSize(length) - 1;
  target[offset] = 0x80 | size;
  for (let i = size; i >= 1; i--) {
    target[offset + i] = length & 0xff;
    length = Math.floor(length / 256);
  }
  return offset + size + 1;
}

/** DER length field on its own. */
export function encodeLength(length: number): Buffer {
  const out = Buffer.allocUnsafe(lengthSize(length));
  writeLength(out, 0, length);
  return out;
}

/** One TLV with a single-byte tag; the contents are concatenated with one allocation. */
export function tlv(tag: number, ...contents: readonly Buffer[]): Buffer {
  return tlvOf(tag, contents);
}

/** Like `tlv` for a content list of any size (no argument spreading, e.g. 100k CRL entries). */
export function tlvOf(tag: number, contents: readonly Buffer[]): Buffer {
  let length = 0;
  for (const part of contents) length += part.length;
  const out = Buffer.allocUnsafe(1 + lengthSize(length) + length);
  out[0] = tag;
  let offset = writeLength(out, 1, length);
  for (const part of contents) {
    part.copy(out, offset);
    offset += part.length;
  }
  return out;
}

export function sequence(...items: readonly Buffer[]): Buffer {
  return tlv(DerTag.SEQUENCE, ...items);
}

/** SET OF in DER order: elements sorted by their encodings. */
export function setOf(...items: readonly Buffer[]): Buffer {
  return tlv(DerTag.SET, ...[...items].sort(Buffer.compare));
}

/** `[n] EXPLICIT` wrapper around one or more complete elements. */
export function explicit(n: number, ...inner: readonly Buffer[]): Buffer {
  return tlv(contextTag(n, true), ...inner);
}

/** `[n] IMPLICIT`: the contents of the replaced element under a context tag. */
export function implicit(n: number, constructed: boolean, content: Buffer): Buffer {
  return tlv(contextTag(n, constructed), content);
}
