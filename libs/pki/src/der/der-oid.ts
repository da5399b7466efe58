import { DerTag } from './der-tag';
import { tlv } from './der-tlv';

const cache = new Map<string, Buffer>();

function base128(value: bigint): number[] {
  const out = [Number(value & 0x7fn)];
  value >>= 7n;
  while (value > 0n) {
    out.unshift(Number(value & 0x7fn) | 0x80);
    value >>= 7n;
  }
  return out;
}

function encodeOid(dotted: string): Buffer {
  if (!/^[0-2](\.(0|[1-9]\d*))+$/.test(dotted)) throw new RangeError(`invalid OID ${dotted}`);
  const arcs = dotted.split('.').map((arc) => BigInt(arc));
  if (arcs[0] < 2n && arcs[1] > 39n) throw new RangeError(`invalid OID ${dotted}`);
  const bytes = base128(arcs[0] * 40n + arcs[1]);
  for (const arc of arcs.slice(2)) bytes.push(...base128(arc));
  return tlv(DerTag.OID, Buffer.from(bytes));
}

/** OBJECT IDENTIFIER TLV from a dotted string; encodings are cached (treat as read-only). */
export function oid(dotted: string): Buffer {
  let encoded = cache.get(dotted);
  if (!encoded) {
    encoded = encodeOid(dotted);
    cache.set(dotted, encoded);
  }
  return encoded;
}

/** Dotted string from the contents of an OBJECT IDENTIFIER. */
export function decodeOid(content: Buffer): string {
  if (content.length === 0 || (content[content.length - 1] & 0x80) !== 0) {
    throw new RangeError('truncated OID');
  }
  const arcs: bigint[] = [];
  let value = 0n;
  let first = true;
  for (let i = 0; i < content.length; i++) {
    const byte = content[i];
    if (value === 0n && byte === 0x80) throw new RangeError('non-minimal OID arc');
    value = (value << 7n) | BigInt(byte & 0x7f);
    if ((byte & 0x80) !== 0) continue;
    if (first) {
      const top = value < 80n ? value / 40n : 2n;
      arcs.push(top, value - top * 40n);
      first = false;
    } else arcs.push(value);
    value = 0n;
  }
  return arcs.join('.');
}
