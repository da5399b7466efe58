import { DerTag } from './der-tag';

function checkDate(date: Date): void {
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid date');
}

function putTwo(out: Buffer, offset: number, value: number): number {
  out[offset] = 0x30 + Math.floor(value / 10);
  out[offset + 1] = 0x30 + (value % 10);
  return offset + 2;
}

/** Writes the TLV directly (no string building: this runs per certificate and CRL entry). */
function encode(date: Date, generalized: boolean): Buffer {
  const length = generalized ? 15 : 13;
  const out = Buffer.allocUnsafe(2 + length);
  out[0] = generalized ? DerTag.GENERALIZED_TIME : DerTag.UTC_TIME;
  out[1] = length;
  const year = date.getUTCFullYear();
  let offset = generalized
    ? putTwo(out, putTwo(out, 2, Math.floor(year / 100)), year % 100)
    : putTwo(out, 2, year % 100);
  offset = putTwo(out, offset, date.getUTCMonth() + 1);
  offset = putTwo(out, offset, date.getUTCDate());
  offset = putTwo(out, offset, date.getUTCHours());
  offset = putTwo(out, offset, date.getUTCMinutes());
  offset = putTwo(out, offset, date.getUTCSeconds());
  out[offset] = 0x5a; // 'Z'
  return out;
}

/** UTCTime YYMMDDHHMMSSZ (years 1950-2049); fractions of a second are dropped. */
export function utcTime(date: Date): Buffer {
  checkDate(date);
  const year = date.getUTCFullYear();
  if (year < 1950 || year > 2049) throw new RangeError('UTCTime covers 1950-2049 only');
  return encode(date, false);
}

/** GeneralizedTime YYYYMMDDHHMMSSZ without fractions. */
export function generalizedTime(date: Date): Buffer {
  checkDate(date);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError('year out of range');
  return encode(date, true);
}

/** RFC 5280 4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050 (and before 1950). */
export function x509Time(date: Date): Buffer {
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? utcTime(date) : generalizedTime(date);
}
