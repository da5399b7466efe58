import { InputValidationError } from '@platform/errors';
import { Readable } from 'node:stream';
import { uploadErrorOf } from './multipart-parts';
import { ReportsError } from './reports.errors';
import { collectField, parseUploadFields, uploadFileName } from './upload-form';

function fieldsOf(thrown: () => unknown): string[] {
  try {
    thrown();
  } catch (error) {
    if (error instanceof InputValidationError) return error.fields.map((f) => f.field);
    throw error;
  }
  return [];
}

describe('upload form', () => {
  it('names the fallback commit by its source', () => {
    const long = 'c'.repeat(201);
    expect(
      fieldsOf(() => parseUploadFields(new Map(), { value: long, source: 'X-Commit-Id' })),
    ).toEqual(['X-Commit-Id']);
    expect(
      fieldsOf(() => parseUploadFields(new Map(), { value: 'a\u0000', source: 'commit_id' })),
    ).toEqual(['commit_id']);
    expect(
      parseUploadFields(new Map([['commit_id', 'form']]), { value: long, source: 'commit_id' })
        .commitId,
    ).toBe('form');
  });

  it('refuses control characters and unpaired surrogates in text fields', () => {
    const form = new Map([
      ['engine', 'a\u001bb'],
      ['engine_version', '1\ud800'],
    ]);
    expect(fieldsOf(() => parseUploadFields(form, undefined))).toEqual([
      'engine',
      'engine_version',
    ]);
  });

  it('refuses a repeated field, a file under a field name and a non-text value', () => {
    const fields = new Map<string, string>();
    collectField(fields, { type: 'field', field: 'engine', value: 'x' });
    expect(
      fieldsOf(() => collectField(fields, { type: 'field', field: 'engine', value: 'y' })),
    ).toEqual(['engine']);
    expect(
      fieldsOf(() => collectField(fields, { type: 'field', field: 'format', value: { a: 1 } })),
    ).toEqual(['format']);
    const file = {
      type: 'file' as const,
      field: 'engine_version',
      filename: 'x',
      stream: Readable.from([]),
    };
    expect(fieldsOf(() => collectField(fields, file))).toEqual(['engine_version']);
  });

  it('keeps the base name of a clean file name and refuses the rest', () => {
    expect(uploadFileName('C:\\scans\\out.sarif')).toBe('out.sarif');
    for (const bad of ['', 'dir/', 'a\u0000.sarif', 'a\u0085.json', `${'x'.repeat(250)}.sarif`]) {
      expect(() => uploadFileName(bad)).toThrow(ReportsError);
    }
  });

  it('maps parser failures to upload codes and leaves other errors alone', () => {
    const codeOf = (error: unknown) => (uploadErrorOf(error) as ReportsError).code;
    const plugin = (code: string) => Object.assign(new Error(code), { code });
    expect(codeOf(plugin('FST_FILES_LIMIT'))).toBe('upload_too_many_files');
    expect(codeOf(plugin('FST_PARTS_LIMIT'))).toBe('upload_too_many_parts');
    expect(codeOf(plugin('FST_REQ_FILE_TOO_LARGE'))).toBe('report_too_large');
    expect(codeOf(new Error('Multipart: Boundary not found'))).toBe('multipart_boundary_missing');
    expect(codeOf(new Error('Unexpected end of multipart data'))).toBe('multipart_malformed');
    expect(codeOf(new Error('Part terminated early due to unexpected end of multipart data'))).toBe(
      'multipart_malformed',
    );
    const other = new Error('connection refused');
    expect(uploadErrorOf(other)).toBe(other);
  });
});
