import { KB } from './hostile-values';
import { encodeMultipart, type MultipartPart } from './multipart-body';
import type { DraftBody } from './request-draft';

export interface MultipartVariant {
  label: string;
  body: (parts: MultipartPart[], boundary: string) => DraftBody;
}

const form = (
  parts: MultipartPart[],
  boundary: string,
  extra: Partial<DraftBody> = {},
): DraftBody => ({ kind: 'multipart', parts, boundary, closed: true, ...extra }) as DraftBody;

const isFile = (p: MultipartPart) => p.filename !== undefined;

function renameFile(parts: MultipartPart[], filename: string): MultipartPart[] {
  return parts.map((p) => (isFile(p) ? { ...p, filename } : p));
}

function fileDisposition(parts: MultipartPart[], disposition: string): MultipartPart[] {
  return parts.map((p) =>
    isFile(p)
      ? { ...p, rawHeaders: `${disposition}\r\nContent-Type: application/octet-stream\r\n` }
      : p,
  );
}

/** Whole-form variants of a multipart upload. */
export const MULTIPART_VARIANTS: readonly MultipartVariant[] = [
  { label: 'no-boundary', body: (p, b) => form(p, b, { contentType: 'multipart/form-data' }) },
  {
    label: 'empty-boundary',
    body: (p, b) => form(p, b, { contentType: 'multipart/form-data; boundary=' }),
  },
  {
    label: 'wrong-boundary',
    body: (p, b) => form(p, b, { contentType: 'multipart/form-data; boundary=other' }),
  },
  { label: 'long-boundary', body: (p) => form(p, 'b'.repeat(200)) },
  { label: 'unterminated', body: (p, b) => form(p, b, { closed: false }) },
  {
    label: 'truncated-mid-part',
    body: (p, b) => {
      const bytes = encodeMultipart(p, b);
      return {
        kind: 'raw',
        contentType: `multipart/form-data; boundary=${b}`,
        bytes: bytes.subarray(0, Math.floor(bytes.length / 2)),
      };
    },
  },
  {
    label: 'empty-body',
    body: (_p, b) => ({
      kind: 'raw',
      contentType: `multipart/form-data; boundary=${b}`,
      bytes: Buffer.alloc(0),
    }),
  },
  {
    label: 'garbage',
    body: (_p, b) => ({
      kind: 'raw',
      contentType: `multipart/form-data; boundary=${b}`,
      bytes: Buffer.from(`--${b}\r\n\u0000\u00ff\r\n\r\n--${b}\r\nxx`, 'latin1'),
    }),
  },
  {
    label: 'part-without-disposition',
    body: (p, b) =>
      form(
        p.map((x) => ({ ...x, rawHeaders: 'Content-Type: text/plain\r\n' })),
        b,
      ),
  },
  {
    label: 'part-without-name',
    body: (p, b) =>
      form(
        p.map((x) => (isFile(x) ? { ...x, name: undefined } : x)),
        b,
      ),
  },
  {
    label: 'disposition-not-form-data',
    body: (p, b) =>
      form(fileDisposition(p, 'Content-Disposition: attachment; filename="r.sarif"'), b),
  },
  { label: 'two-files', body: (p, b) => form([...p, ...p.filter(isFile)], b) },
  {
    label: 'two-files-other-names',
    body: (p, b) => form([...p, ...p.filter(isFile).map((x) => ({ ...x, name: 'other' }))], b),
  },
  {
    label: 'file-field-renamed',
    body: (p, b) =>
      form(
        p.map((x) => (isFile(x) ? { ...x, name: 'files[]' } : x)),
        b,
      ),
  },
  {
    label: 'fields-only',
    body: (p, b) =>
      form(
        p.filter((x) => !isFile(x)),
        b,
      ),
  },
  {
    label: 'file-as-field',
    body: (p, b) =>
      form(
        p.map((x) => (isFile(x) ? { ...x, filename: undefined } : x)),
        b,
      ),
  },
  {
    label: 'empty-file',
    body: (p, b) =>
      form(
        p.map((x) => (isFile(x) ? { ...x, data: '' } : x)),
        b,
      ),
  },
  {
    label: 'binary-file',
    body: (p, b) =>
      form(
        p.map((x) => (isFile(x) ? { ...x, data: Buffer.from([0, 0xff, 0xfe, 0x1f, 0x8b, 0]) } : x)),
        b,
      ),
  },
  { label: 'nul-in-filename', body: (p, b) => form(renameFile(p, 'rep\u0000ort.sarif'), b) },
  {
    label: 'traversal-filename',
    body: (p, b) => form(renameFile(p, '../../../../tmp/evil.sarif'), b),
  },
  { label: 'control-filename', body: (p, b) => form(renameFile(p, 'a\u0001\u001b[2J.sarif'), b) },
  { label: 'latin1-filename', body: (p, b) => form(renameFile(p, '\u00ff\u00fe.sarif'), b) },
  { label: 'quote-filename', body: (p, b) => form(renameFile(p, 'a";name="x.sarif'), b) },
  {
    label: 'long-filename',
    body: (p, b) => form(renameFile(p, `${'n'.repeat(10 * KB)}.sarif`), b),
  },
  { label: 'no-extension', body: (p, b) => form(renameFile(p, 'report'), b) },
  { label: 'archive-extension', body: (p, b) => form(renameFile(p, 'report.sarif.zip'), b) },
  { label: 'empty-filename', body: (p, b) => form(renameFile(p, ''), b) },
  {
    label: 'rfc5987-filename',
    body: (p, b) =>
      form(
        fileDisposition(
          p,
          'Content-Disposition: form-data; name="file"; filename*=UTF-8\'\'%E2%82%AC%00.sarif',
        ),
        b,
      ),
  },
  {
    label: 'huge-part-header',
    body: (p, b) =>
      form(
        fileDisposition(
          p,
          `Content-Disposition: form-data; name="file"; filename="r.sarif"\r\nX-Pad: ${'p'.repeat(100 * KB)}`,
        ),
        b,
      ),
  },
  { label: 'duplicate-fields', body: (p, b) => form([...p, ...p.filter((x) => !isFile(x))], b) },
  { label: 'unknown-field', body: (p, b) => form([{ name: 'unknown_field', data: 'x' }, ...p], b) },
  {
    label: 'proto-field',
    body: (p, b) =>
      form(
        [{ name: '__proto__', data: '{"admin":true}' }, { name: 'constructor', data: 'x' }, ...p],
        b,
      ),
  },
  {
    label: 'too-many-fields',
    body: (p, b) =>
      form([...Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, data: 'x' })), ...p], b),
  },
  {
    label: 'field-over-size',
    body: (p, b) =>
      form(
        [{ name: 'engine', data: 'e'.repeat(100 * KB) }, ...p.filter((x) => x.name !== 'engine')],
        b,
      ),
  },
  {
    label: 'json-body',
    body: () => ({
      kind: 'raw',
      contentType: 'application/json',
      bytes: Buffer.from('{"file":"x"}'),
    }),
  },
  {
    label: 'form-urlencoded',
    body: () => ({
      kind: 'raw',
      contentType: 'application/x-www-form-urlencoded',
      bytes: Buffer.from('file=x&engine=%00'),
    }),
  },
  {
    label: 'mixed-type',
    body: (p, b) => form(p, b, { contentType: `multipart/mixed; boundary=${b}` }),
  },
  { label: 'no-body', body: () => ({ kind: 'none' }) },
];
