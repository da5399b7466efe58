import type { CustomTypesConfig } from 'pg';
import { types } from 'pg';

/** PostgreSQL type oids these parsers take over (pg-types' numbers). */
const TIMESTAMPTZ = 1184;
const TEXT_ARRAY = 1009;
const VARCHAR_ARRAY = 1015;

/** node-pg's own parser of a type oid (its typings list only the scalar built-ins' oids). */
export const nodePgTypeParser = types.getTypeParser as (
  oid: number,
  format?: 'text' | 'binary',
) => (value: string) => unknown;

const defaultTimestamptz = nodePgTypeParser(TIMESTAMPTZ, 'text');
const defaultTextArray = nodePgTypeParser(TEXT_ARRAY, 'text');

const ZERO = 48;
/** `s[from, to)` as a decimal number; NaN when a character is not a digit. */
function digits(s: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return value;
}

/**
 * A `timestamptz` in PostgreSQL's ISO output at UTC (`2026-12-01 10:54:06.026951+00`, the
 * service's sessions) as the same Date node-pg's parser (postgres-date) returns — milliseconds
 * truncated as `Date.UTC(…, 1000 * parseFloat('.026951'))` does — without its regular
 * expressions and substrings (~500 bytes of garbage a value, issue 34). Anything else (another
 * offset, a year below 100 or of more than four digits, BC, infinity) goes to node-pg's parser.
 */
export function parseTimestamptz(s: string): unknown {
  const n = s.length;
  if (
    n < 22 ||
    s.charCodeAt(n - 3) !== 43 || // '+'
    s.charCodeAt(n - 2) !== ZERO ||
    s.charCodeAt(n - 1) !== ZERO ||
    s.charCodeAt(4) !== 45 || // '-'
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 32 || // ' '
    s.charCodeAt(13) !== 58 || // ':'
    s.charCodeAt(16) !== 58
  )
    return defaultTimestamptz(s);
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 7);
  const day = digits(s, 8, 10);
  const hour = digits(s, 11, 13);
  const minute = digits(s, 14, 16);
  const second = digits(s, 17, 19);
  let ms = 0;
  if (n > 22) {
    // '.' and 1-6 digits: the same double as 1000 * parseFloat('.ffffff') (both correctly rounded)
    if (s.charCodeAt(19) !== 46 || n > 29) return defaultTimestamptz(s);
    const fraction = digits(s, 20, n - 3);
    ms = 1000 * (fraction / 10 ** (n - 23));
  }
  if (Number.isNaN(year + month + day + hour + minute + second + ms) || year < 100)
    return defaultTimestamptz(s);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
}

/**
 * A one-dimensional `text[]` whose elements PostgreSQL did not quote (`{}`, `{pci,CWE-79}`;
 * unquoted `NULL` is null) as node-pg's array parser returns it, without its per-character
 * objects (~280 bytes for an empty array, ~700 for one element). Quoted or escaped elements,
 * nested arrays and explicit bounds go to node-pg's parser.
 */
export function parseTextArray(s: string): unknown {
  const n = s.length;
  if (n < 2 || s.charCodeAt(0) !== 123 || s.charCodeAt(n - 1) !== 125) return defaultTextArray(s);
  if (n === 2) return [];
  for (let i = 1; i < n - 1; i++) {
    const c = s.charCodeAt(i);
    // '"', '\\', '{', '}'
    if (c === 34 || c === 92 || c === 123 || c === 125) return defaultTextArray(s);
  }
  const entries: (string | null)[] = s.slice(1, n - 1).split(',');
  for (let i = 0; i < entries.length; i++) if (entries[i] === 'NULL') entries[i] = null;
  return entries;
}

/**
 * node-pg's type parsers with the two above in place of its `timestamptz` and `text[]`
 * parsers: the same values, less garbage per row. For a statement's `types` (pg's query
 * config), e.g. a list page of 50 findings with four dates and four arrays a row.
 */
export const LEAN_TYPE_PARSERS: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (format !== 'binary') {
      if (oid === TIMESTAMPTZ) return parseTimestamptz;
      if (oid === TEXT_ARRAY || oid === VARCHAR_ARRAY) return parseTextArray;
    }
    return nodePgTypeParser(oid, format);
  }) as CustomTypesConfig['getTypeParser'],
};
