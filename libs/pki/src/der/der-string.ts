import { DerTag } from './der-tag';
import { tlv } from './der-tlv';

const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;
// eslint-disable-next-line no-control-regex
const IA5 = /^[\x00-\x7f]*$/;

export function utf8String(value: string): Buffer {
  return tlv(DerTag.UTF8_STRING, Buffer.from(value, 'utf8'));
}

export function isPrintableString(value: string): boolean {
  return PRINTABLE.test(value);
}

export function printableString(value: string): Buffer {
  if (!PRINTABLE.test(value)) throw new RangeError('value is not a PrintableString');
  return tlv(DerTag.PRINTABLE_STRING, Buffer.from(value, 'latin1'));
}

/** Contents of an IA5String (ASCII), e.g. for IMPLICIT-tagged GeneralNames. */
export function ia5Bytes(value: string): Buffer {
  if (!IA5.test(value)) throw new RangeError('value is not an IA5String');
  return Buffer.from(value, 'latin1');
}

export function ia5String(value: string): Buffer {
  return tlv(DerTag.IA5_STRING, ia5Bytes(value));
}
