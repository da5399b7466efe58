import { deepArray, deepObject, KB } from './hostile-values';
import type { DraftBody } from './request-draft';

export interface BodyVariant {
  label: string;
  /** The replacement body given the valid JSON text of the operation (if any). */
  body: (validJson: Buffer) => DraftBody;
}

const raw = (contentType: string | undefined, bytes: string | Buffer): DraftBody => ({
  kind: 'raw',
  contentType,
  bytes: Buffer.from(bytes),
});

const JSON_TYPE = 'application/json';

/** Whole-body variants for an operation that takes JSON (or takes nothing). */
export const JSON_BODY_VARIANTS: readonly BodyVariant[] = [
  { label: 'empty-json', body: () => raw(JSON_TYPE, '') },
  { label: 'no-body-no-type', body: () => ({ kind: 'none' }) },
  { label: 'whitespace', body: () => raw(JSON_TYPE, ' \r\n\t ') },
  { label: 'empty-object', body: () => raw(JSON_TYPE, '{}') },
  { label: 'array', body: () => raw(JSON_TYPE, '[]') },
  { label: 'null', body: () => raw(JSON_TYPE, 'null') },
  { label: 'string', body: () => raw(JSON_TYPE, '"x"') },
  { label: 'number', body: () => raw(JSON_TYPE, '1e400') },
  { label: 'truncated', body: (v) => raw(JSON_TYPE, v.subarray(0, Math.max(1, v.length - 1))) },
  { label: 'invalid-json', body: () => raw(JSON_TYPE, "{'a':1,}") },
  { label: 'trailing-garbage', body: (v) => raw(JSON_TYPE, Buffer.concat([v, Buffer.from('}{')])) },
  { label: 'nan-literal', body: () => raw(JSON_TYPE, '{"a":NaN}') },
  { label: 'nested-array-10000', body: () => raw(JSON_TYPE, deepArray(10_000)) },
  { label: 'nested-object-10000', body: () => raw(JSON_TYPE, deepObject(10_000)) },
  { label: 'nested-object-65', body: () => raw(JSON_TYPE, deepObject(65)) },
  { label: 'nested-array-100000', body: () => raw(JSON_TYPE, deepArray(100_000)) },
  { label: 'over-body-limit', body: () => raw(JSON_TYPE, `{"a":"${'x'.repeat(2048 * KB)}"}`) },
  { label: 'proto-pollution', body: (v) => raw(JSON_TYPE, protoMerged(v)) },
  {
    label: 'bom',
    body: (v) => raw(JSON_TYPE, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), v])),
  },
  {
    label: 'utf16le',
    body: (v) => raw(`${JSON_TYPE}; charset=utf-16le`, Buffer.from(v.toString(), 'utf16le')),
  },
  {
    label: 'invalid-utf8',
    body: () => raw(JSON_TYPE, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
  },
  { label: 'charset-latin1', body: (v) => raw(`${JSON_TYPE}; charset=latin1`, v) },
  { label: 'uppercase-type', body: (v) => raw('APPLICATION/JSON', v) },
  { label: 'vendor-json-type', body: (v) => raw('application/vnd.api+json', v) },
  { label: 'text-plain', body: (v) => raw('text/plain', v) },
  {
    label: 'form-urlencoded',
    body: () => raw('application/x-www-form-urlencoded', 'a=1&b=%00&__proto__[x]=1'),
  },
  {
    label: 'xml',
    body: () =>
      raw(
        'application/xml',
        '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
      ),
  },
  { label: 'octet-stream', body: (v) => raw('application/octet-stream', v) },
  { label: 'no-type-with-body', body: (v) => raw(undefined, v) },
  { label: 'bad-type-header', body: (v) => raw(';;;=/', v) },
  { label: 'multipart-no-boundary', body: (v) => raw('multipart/form-data', v) },
  {
    label: 'multipart-form',
    body: () =>
      raw(
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n',
      ),
  },
];

function protoMerged(valid: Buffer): string {
  const text = valid.toString();
  const inner = text.startsWith('{') && text.length > 2 ? `${text.slice(1, -1)},` : '';
  return `{${inner}"__proto__":{"admin":true,"is_admin":true},"constructor":{"prototype":{"x":1}}}`;
}
