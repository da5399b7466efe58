// The few DER encodings a PKCS#10 request needs (X.690). The agent carries its own: the
// service's @platform/pki encoders live beside its CA and parsers, which the agent does not need.

/** One TLV: tag byte, definite length, contents. */
export function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
export const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
export const utf8String = (value: string): Buffer => tlv(0x0c, Buffer.from(value, 'utf8'));
export const smallInteger = (value: number): Buffer => tlv(0x02, Buffer.from([value]));
/** BIT STRING without unused bits. */
export const bitString = (bytes: Buffer): Buffer => tlv(0x03, Buffer.from([0]), bytes);
/** `[n]` constructed, context-specific. */
export const contextConstructed = (n: number, ...items: Buffer[]): Buffer =>
  tlv(0xa0 | n, ...items);

/** OBJECT IDENTIFIER from dotted notation. */
export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const bytes = [arcs[0] * 40 + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [arc & 0x7f];
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128)) {
      base128.unshift((rest & 0x7f) | 0x80);
    }
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** PEM armour of DER bytes, 64 characters a line. */
export function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}
