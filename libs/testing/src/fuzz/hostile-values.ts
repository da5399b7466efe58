/**
 * Hostile values by where they go: JSON body fields (raw JSON text, so lone surrogates, deep
 * nesting and invalid UTF-8 can be sent exactly), URL tokens (already percent-encoded) and
 * header values (what an HTTP client can put on the wire).
 */

export type HostileCategory =
  | 'null'
  | 'type'
  | 'string'
  | 'control'
  | 'unicode'
  | 'number'
  | 'size'
  | 'nesting'
  | 'prototype'
  | 'id';

export interface HostileJson {
  label: string;
  category: HostileCategory;
  /** Raw JSON text (or bytes) given the field's valid value. */
  json: (valid: unknown) => string | Buffer;
}

export interface HostileToken {
  label: string;
  category: HostileCategory;
  /** Percent-encoded URL text given the valid value of the slot (may be ''). */
  raw: (valid: string) => string;
}

export interface HostileHeader {
  label: string;
  category: HostileCategory;
  value: (valid: string) => string;
}

export const KB = 1024;
export const DEEP = 10_000;

const text = (value: string) => () => JSON.stringify(value);
const literal = (value: string) => () => value;
const validString = (valid: unknown) => (typeof valid === 'string' ? valid : String(valid ?? ''));

export function deepArray(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

export function deepObject(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/** Valid UTF-8 JSON text with invalid bytes inside a string. */
const invalidUtf8String = () =>
  Buffer.concat([Buffer.from('"a'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf]), Buffer.from('b"')]);

export const HOSTILE_JSON: readonly HostileJson[] = [
  { label: 'null', category: 'null', json: literal('null') },
  { label: 'true', category: 'type', json: literal('true') },
  { label: 'false', category: 'type', json: literal('false') },
  { label: 'empty-object', category: 'type', json: literal('{}') },
  { label: 'object', category: 'type', json: literal('{"a":"b","0":1}') },
  { label: 'empty-array', category: 'type', json: literal('[]') },
  { label: 'array-of-null', category: 'type', json: literal('[null]') },
  { label: 'array-of-valid', category: 'type', json: (v) => JSON.stringify([v ?? 'x']) },
  { label: 'number-as-string', category: 'type', json: text('1') },
  { label: 'bool-as-string', category: 'type', json: text('true') },
  { label: 'zero', category: 'number', json: literal('0') },
  { label: 'minus-one', category: 'number', json: literal('-1') },
  { label: 'negative-zero', category: 'number', json: literal('-0') },
  { label: 'fraction', category: 'number', json: literal('0.5') },
  { label: 'exp-1e20', category: 'number', json: literal('1e20') },
  { label: 'exp-neg-1e20', category: 'number', json: literal('-1e20') },
  { label: 'exp-1e400', category: 'number', json: literal('1e400') },
  { label: 'huge-int', category: 'number', json: literal('99999999999999999999') },
  { label: 'int32-overflow', category: 'number', json: literal('2147483648') },
  { label: 'unsafe-int', category: 'number', json: literal('9007199254740993') },
  { label: 'tiny', category: 'number', json: literal('5e-324') },
  { label: 'exp-string', category: 'number', json: text('1e20') },
  { label: 'empty-string', category: 'string', json: text('') },
  { label: 'spaces', category: 'string', json: text('   ') },
  { label: 'nul', category: 'control', json: text('\u0000') },
  {
    label: 'nul-inside',
    category: 'control',
    json: (v) => JSON.stringify(`${validString(v)}\u0000x`),
  },
  { label: 'control-chars', category: 'control', json: text('a\u0001\u0008\u001b[31m\u007fb') },
  {
    label: 'newlines',
    category: 'control',
    json: (v) => JSON.stringify(`${validString(v)}\r\n\tX-Injected: 1`),
  },
  { label: 'lone-high-surrogate', category: 'unicode', json: literal('"a\\ud800b"') },
  { label: 'lone-low-surrogate', category: 'unicode', json: literal('"\\udfff"') },
  { label: 'invalid-utf8', category: 'unicode', json: invalidUtf8String },
  { label: 'rtl-zero-width', category: 'unicode', json: text('\u202e\u200b\ufeffadmin\u2066') },
  { label: 'emoji-astral', category: 'unicode', json: text('\u{1F600}\u{10FFFF}\u{E0041}') },
  { label: 'path-traversal', category: 'string', json: text('../../../../etc/passwd') },
  { label: 'sql-quote', category: 'string', json: text("' OR '1'='1'; --") },
  { label: 'percent-escapes', category: 'string', json: text('%00%2e%2e%2f%ff') },
  { label: 'like-wildcards', category: 'string', json: text('%_\\%') },
  { label: 'bad-date', category: 'string', json: text('2024-02-30T25:61:61Z') },
  { label: 'far-date', category: 'string', json: text('+275760-09-13T00:00:00.001Z') },
  { label: 'string-100kb', category: 'size', json: text('A'.repeat(100 * KB)) },
  { label: 'multibyte-300kb', category: 'size', json: text('\u20ac'.repeat(100 * KB)) },
  { label: 'string-over-body-limit', category: 'size', json: text('B'.repeat(1100 * KB)) },
  { label: 'array-100k', category: 'size', json: () => `[${'0,'.repeat(99_999)}0]` },
  {
    label: 'object-10k-keys',
    category: 'size',
    json: () =>
      JSON.stringify(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))),
  },
  { label: 'nested-array-10000', category: 'nesting', json: () => deepArray(DEEP) },
  { label: 'nested-object-10000', category: 'nesting', json: () => deepObject(DEEP) },
  { label: 'nested-array-100', category: 'nesting', json: () => deepArray(100) },
  {
    label: 'proto-key',
    category: 'prototype',
    json: literal('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'),
  },
  { label: 'zero-uuid', category: 'id', json: text('00000000-0000-0000-0000-000000000000') },
  { label: 'not-a-uuid', category: 'id', json: text('not-a-uuid') },
];

const enc = (value: string) => encodeURIComponent(value);

export const HOSTILE_URL_TOKENS: readonly HostileToken[] = [
  { label: 'empty', category: 'string', raw: () => '' },
  { label: 'nul', category: 'control', raw: () => '%00' },
  { label: 'valid-then-nul', category: 'control', raw: (v) => `${enc(v)}%00` },
  { label: 'control-chars', category: 'control', raw: () => 'a%01%08%1B%7Fb' },
  { label: 'crlf', category: 'control', raw: (v) => `${enc(v)}%0D%0ASet-Cookie:%20x=1` },
  { label: 'lone-surrogate-utf8', category: 'unicode', raw: () => '%ED%A0%80' },
  { label: 'invalid-utf8', category: 'unicode', raw: () => '%FF%FE' },
  { label: 'overlong-utf8', category: 'unicode', raw: () => '%C0%AF' },
  { label: 'truncated-utf8', category: 'unicode', raw: () => '%E2%82' },
  { label: 'bad-percent', category: 'unicode', raw: () => '%zz%' },
  { label: 'rtl-override', category: 'unicode', raw: () => '%E2%80%AEabc' },
  { label: 'emoji', category: 'unicode', raw: () => '%F0%9F%98%80' },
  { label: 'dotdot', category: 'string', raw: () => '..' },
  { label: 'encoded-dotdot', category: 'string', raw: () => '%2E%2E' },
  { label: 'traversal', category: 'string', raw: () => '..%2F..%2Fetc%2Fpasswd' },
  { label: 'encoded-slash', category: 'string', raw: (v) => `${enc(v)}%2Fx` },
  { label: 'sql-quote', category: 'string', raw: () => "'%20OR%20'1'%3D'1" },
  { label: 'word', category: 'id', raw: () => 'not-a-uuid' },
  { label: 'zero-uuid', category: 'id', raw: () => '00000000-0000-0000-0000-000000000000' },
  { label: 'uppercase', category: 'id', raw: (v) => enc(v.toUpperCase()) },
  { label: 'braced', category: 'id', raw: (v) => `%7B${enc(v)}%7D` },
  { label: 'padded', category: 'id', raw: (v) => `%20${enc(v)}%20` },
  { label: 'minus-one', category: 'number', raw: () => '-1' },
  { label: 'zero', category: 'number', raw: () => '0' },
  { label: 'fraction', category: 'number', raw: () => '0.5' },
  { label: 'exp-1e20', category: 'number', raw: () => '1e20' },
  { label: 'huge-int', category: 'number', raw: () => '99999999999999999999' },
  { label: 'nan', category: 'number', raw: () => 'NaN' },
  { label: 'infinity', category: 'number', raw: () => '-Infinity' },
  { label: 'hex', category: 'number', raw: () => '0x7fffffff' },
  { label: 'long-5kb', category: 'size', raw: () => 'a'.repeat(5 * KB) },
  { label: 'long-multibyte', category: 'size', raw: () => '%E2%82%AC'.repeat(600) },
  { label: 'proto', category: 'prototype', raw: () => '__proto__' },
];

export const HOSTILE_HEADERS: readonly HostileHeader[] = [
  { label: 'empty', category: 'string', value: () => '' },
  { label: 'latin1-bytes', category: 'unicode', value: () => '\u00ff\u00fe\u00c0\u00af' },
  { label: 'tab-padded', category: 'control', value: (v) => `\t${v}\t` },
  { label: 'long-8kb', category: 'size', value: () => 'h'.repeat(8 * KB) },
  { label: 'number-1e20', category: 'number', value: () => '1e20' },
  { label: 'list', category: 'string', value: (v) => `${v}, ${v}, *` },
  { label: 'traversal', category: 'string', value: () => '../../../etc/passwd' },
  { label: 'quotes', category: 'string', value: () => '"\'\\"' },
];
