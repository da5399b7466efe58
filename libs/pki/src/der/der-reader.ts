import { PkiError } from '../pki.errors';
import { decodeOid } from './der-oid';
import { DerTag } from './der-tag';

/** One parsed element: `der` is the whole TLV, `content` its value (both views of the input). */
export interface DerElement {
  readonly tag: number;
  readonly der: Buffer;
  readonly content: Buffer;
}

function invalid(message: string): PkiError {
  return new PkiError('der_invalid', message);
}

/** Reads one element at `offset` with strict DER length rules (definite, minimal). */
export function readElement(input: Buffer, offset = 0): DerElement {
  if (offset + 2 > input.length) throw invalid('truncated element header');
  const tag = input[offset];
  if ((tag & 0x1f) === 0x1f) throw invalid('multi-byte tags are not supported');
  let length = input[offset + 1];
  let header = 2;
  if (length & 0x80) {
    const size = length & 0x7f;
    if (size === 0) throw invalid('indefinite length is not DER');
    if (size > 4) throw invalid('length field too long');
    if (offset + 2 + size > input.length) throw invalid('truncated length');
    if (input[offset + 2] === 0) throw invalid('non-minimal length');
    length = 0;
    for (let i = 0; i < size; i++) length = length * 256 + input[offset + 2 + i];
    if (length < 0x80) throw invalid('non-minimal length');
    header += size;
  }
  const end = offset + header + length;
  if (end > input.length) throw invalid('truncated element');
  return {
    tag,
    der: input.subarray(offset, end),
    content: input.subarray(offset + header, end),
  };
}

/** Exactly one element filling the whole input (trailing bytes are refused). */
export function readSingle(input: Buffer): DerElement {
  const element = readElement(input, 0);
  if (element.der.length !== input.length) throw invalid('trailing data after element');
  return element;
}

/** The elements inside a constructed element. */
export function readChildren(parent: DerElement): DerElement[] {
  if ((parent.tag & 0x20) === 0) throw invalid('element is not constructed');
  const children: DerElement[] = [];
  let offset = 0;
  while (offset < parent.content.length) {
    const child = readElement(parent.content, offset);
    children.push(child);
    offset += child.der.length;
  }
  return children;
}

export function expectTag(element: DerElement | undefined, tag: number, what: string): DerElement {
  if (!element || element.tag !== tag) throw invalid(`expected ${what}`);
  return element;
}

export function readOid(element: DerElement | undefined, what = 'OBJECT IDENTIFIER'): string {
  const node = expectTag(element, DerTag.OID, what);
  try {
    return decodeOid(node.content);
  } catch {
    throw invalid(`malformed ${what}`);
  }
}

/** INTEGER as a bigint (two's complement, minimal encoding enforced). */
export function readInteger(element: DerElement | undefined, what = 'INTEGER'): bigint {
  const { content } = expectTag(element, DerTag.INTEGER, what);
  if (content.length === 0) throw invalid(`empty ${what}`);
  if (
    content.length > 1 &&
    ((content[0] === 0 && (content[1] & 0x80) === 0) ||
      (content[0] === 0xff && (content[1] & 0x80) !== 0))
  ) {
    throw invalid(`non-minimal ${what}`);
  }
  let value = BigInt(`0x${content.toString('hex')}`);
  if (content[0] & 0x80) value -= 1n << BigInt(content.length * 8);
  return value;
}

/** Contents of a BIT STRING that must hold whole bytes. */
export function readBitStringBytes(element: DerElement | undefined, what = 'BIT STRING'): Buffer {
  const { content } = expectTag(element, DerTag.BIT_STRING, what);
  if (content.length === 0 || content[0] !== 0) throw invalid(`${what} with unused bits`);
  return content.subarray(1);
}

function parseTime(text: string, generalized: boolean): Date {
  const match = generalized
    ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
    : /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  if (!match) throw invalid('malformed time');
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const year = generalized ? y : y < 50 ? 2000 + y : 1900 + y;
  const date = new Date(Date.UTC(year, mo - 1, d, h, mi, s));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) throw invalid('invalid date');
  return date;
}

/** UTCTime or GeneralizedTime in the RFC 5280 profile (Z, seconds, no fractions). */
export function readTime(element: DerElement | undefined): Date {
  if (element?.tag === DerTag.UTC_TIME) return parseTime(element.content.toString('latin1'), false);
  if (element?.tag === DerTag.GENERALIZED_TIME) {
    return parseTime(element.content.toString('latin1'), true);
  }
  throw invalid('expected a time');
}
