import { PkiError } from '../pki.errors';

/** PEM armour with 64-character lines. */
export function toPem(label: string, der: Buffer): string {
  const body = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${body}${body.endsWith('\n') ? '' : '\n'}-----END ${label}-----\n`;
}

const BLOCK = /^\s*-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\s]*?)-----END \1-----\s*$/;

/**
 * Decodes one PEM block whose label is among `labels`. Only whitespace may surround the
 * block; anything else (headers, a second block, junk) is refused.
 */
export function fromPem(text: string, labels: readonly string[]): Buffer {
  const match = BLOCK.exec(text);
  if (!match || !labels.includes(match[1])) {
    throw new PkiError('der_invalid', `expected one PEM block labelled ${labels.join(' or ')}`);
  }
  const base64 = match[2].replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) {
    throw new PkiError('der_invalid', 'malformed base64 in PEM block');
  }
  return Buffer.from(base64, 'base64');
}

/** All certificates of a PEM bundle, in order. */
export function certificatesFromPem(text: string): Buffer[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => fromPem(block, ['CERTIFICATE']));
}
