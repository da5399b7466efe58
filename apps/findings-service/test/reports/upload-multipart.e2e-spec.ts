import { readdirSync } from 'node:fs';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Login } from '../support/sessions';
import { freshProduct } from '../support/findings-seed';
import { IngestionStack, startIngestion } from '../support/ingestion-env';
import { TestApp } from '../support/test-app';
import { fixture } from '@platform/report-parsing/testing';

const SARIF = fixture('flawfinder-vulnerable.sarif');
const BOUNDARY = 'b0undary-Of-Test';

let t: TestApp;
let admin: Login;
let stack: IngestionStack;
let productId: string;

beforeAll(async () => {
  stack = await startIngestion({ env: { REPORT_MAX_BYTES: String(64 * 1024) } });
  ({ t, admin } = stack);
  productId = (await freshProduct(t, admin)).id;
});
afterAll(() => stack.close());

interface Part {
  name: string;
  filename?: string;
  /** Raw header value instead of the one built from name/filename. */
  disposition?: string;
  content: Buffer | string;
}

function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.disposition ??
      `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`, 'latin1'),
      Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const file = (filename = 'report.sarif', content: Buffer | string = SARIF): Part => ({
  name: 'file',
  filename,
  content,
});

async function post(
  body: Buffer | string,
  contentType = `multipart/form-data; boundary=${BOUNDARY}`,
  extra: { query?: string; headers?: Record<string, string> } = {},
) {
  let req = request(t.url)
    .post(`/api/v1/products/${productId}/reports${extra.query ?? ''}`)
    .set('Authorization', `Bearer ${admin.token}`)
    .set('Content-Type', contentType);
  for (const [name, value] of Object.entries(extra.headers ?? {})) req = req.set(name, value);
  return req.send(body);
}

async function reportRows(): Promise<number> {
  const rows = (await t.app
    .get(DataSource)
    .query('SELECT count(*)::int AS n FROM reports WHERE product_id = $1', [productId])) as {
    n: number;
  }[];
  return rows[0].n;
}

/** The upload is refused with `status` and `code` in the findings envelope, leaving nothing. */
async function expectRefused(
  send: () => Promise<request.Response>,
  status: number,
  code: string,
): Promise<request.Response> {
  const files = readdirSync(stack.env.storageDir);
  const rows = await reportRows();
  const res = await send();
  expect({ status: res.status, code: (res.body as { code?: string }).code }).toEqual({
    status,
    code,
  });
  expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String), code }));
  expect(readdirSync(stack.env.storageDir)).toEqual(files);
  expect(await reportRows()).toBe(rows);
  return res;
}

describe('Upload report, hostile multipart - /api/v1/products/{product_id}/reports (POST)', () => {
  describe('broken multipart framing', () => {
    it('multipart without a boundary: 400 multipart_boundary_missing', async () => {
      await expectRefused(
        () => post(multipart([file()]), 'multipart/form-data'),
        400,
        'multipart_boundary_missing',
      );
    });

    it('an empty boundary: 400 multipart_boundary_missing', async () => {
      await expectRefused(
        () => post(multipart([file()]), 'multipart/form-data; boundary='),
        400,
        'multipart_boundary_missing',
      );
    });

    it('a body that is not multipart at all: 400 multipart_malformed', async () => {
      await expectRefused(() => post('{"file": "x"}'), 400, 'multipart_malformed');
    });

    it('a body cut off inside the file part: 400 multipart_malformed', async () => {
      const body = multipart([file()]);
      await expectRefused(
        () => post(body.subarray(0, body.length - 40)),
        400,
        'multipart_malformed',
      );
    });

    it('a body cut off after the part headers: 400 multipart_malformed', async () => {
      await expectRefused(
        () =>
          post(
            `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="r.sarif"\r\n`,
          ),
        400,
        'multipart_malformed',
      );
    });
  });

  describe('file parts', () => {
    it('two file parts: 400 upload_too_many_files, not 413', async () => {
      await expectRefused(
        () => post(multipart([file('a.sarif'), file('b.sarif')])),
        400,
        'upload_too_many_files',
      );
    });

    it('more form fields than an upload takes: 400 upload_too_many_parts, not 413', async () => {
      const fields = Array.from({ length: 25 }, (_, i) => ({ name: `extra_${i}`, content: 'x' }));
      await expectRefused(() => post(multipart([...fields, file()])), 400, 'upload_too_many_parts');
    });

    it('a text field sent as a file part: 400 validation_failed naming it', async () => {
      const res = await expectRefused(
        () => post(multipart([{ name: 'engine', filename: 'engine.txt', content: 'x' }, file()])),
        400,
        'validation_failed',
      );
      expect(res.body.fields).toEqual([expect.objectContaining({ field: 'engine' })]);
    });

    it.each([
      ['NUL', 'report\u0000.sarif'],
      ['a control character', 'rep\u0007ort.sarif'],
      ['an escape character (RFC 5987 encoded)', null],
      ['more than 255 characters', `${'r'.repeat(250)}.sarif`],
    ])('a filename with %s: 400 invalid_filename', async (_case, filename) => {
      const part: Part =
        filename === null
          ? {
              name: 'file',
              disposition: `form-data; name="file"; filename*=UTF-8''evil%1B%5B2J.sarif`,
              content: SARIF,
            }
          : file(filename);
      await expectRefused(() => post(multipart([part])), 400, 'invalid_filename');
    });
  });

  describe('form fields', () => {
    it.each([
      ['engine', 'with NUL', 'flaw\u0000finder'],
      ['engine', 'with an escape character', 'flaw\u001bfinder'],
      ['engine', 'of 201 characters', 'e'.repeat(201)],
      ['engine_version', 'with NUL', '1.0\u0000'],
      ['commit_id', 'with NUL', 'abc\u0000def'],
      ['commit_id', 'of 201 characters', 'c'.repeat(201)],
      ['format', 'with NUL', 'sarif\u0000'],
      ['verify_fixes', 'not a boolean', 'maybe'],
    ])('%s %s: 400 validation_failed naming it', async (field, _case, value) => {
      const res = await expectRefused(
        () => post(multipart([{ name: field, content: value }, file()])),
        400,
        'validation_failed',
      );
      expect(res.body.fields).toEqual([expect.objectContaining({ field })]);
    });

    it('a field given twice: 400 validation_failed naming it', async () => {
      const res = await expectRefused(
        () =>
          post(
            multipart([{ name: 'engine', content: 'a' }, { name: 'engine', content: 'b' }, file()]),
          ),
        400,
        'validation_failed',
      );
      expect(res.body.fields).toEqual([expect.objectContaining({ field: 'engine' })]);
    });

    it('commit_id from the query with NUL or over 200: 400 naming commit_id', async () => {
      for (const query of ['?commit_id=a%00b', `?commit_id=${'q'.repeat(201)}`]) {
        const res = await expectRefused(
          () => post(multipart([file()]), undefined, { query }),
          400,
          'validation_failed',
        );
        expect(res.body.fields).toEqual([expect.objectContaining({ field: 'commit_id' })]);
      }
    });

    it('X-Commit-Id over 200 characters: 400 naming X-Commit-Id', async () => {
      const res = await expectRefused(
        () => post(multipart([file()]), undefined, { headers: { 'X-Commit-Id': 'h'.repeat(201) } }),
        400,
        'validation_failed',
      );
      expect(res.body.fields).toEqual([expect.objectContaining({ field: 'X-Commit-Id' })]);
    });
  });

  it('keeps the real 413 for a file over REPORT_MAX_BYTES', async () => {
    await expectRefused(
      () => post(multipart([file('big.json', `[${' '.repeat(64 * 1024)}]`)])),
      413,
      'report_too_large',
    );
  });

  it('still accepts a well-formed upload with every field', async () => {
    const res = await post(
      multipart([
        { name: 'format', content: 'sarif' },
        { name: 'engine', content: 'flawfinder' },
        { name: 'engine_version', content: '2.0.19' },
        { name: 'commit_id', content: 'abc123' },
        { name: 'verify_fixes', content: 'true' },
        file('flawfinder.sarif'),
      ]),
    );
    expect(res.status).toBe(202);
    expect(readdirSync(stack.env.storageDir)).toContain(`${res.body.data.report_id}.sarif`);
  });
});
