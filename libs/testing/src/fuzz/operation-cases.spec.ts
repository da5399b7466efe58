import { openApiOperations } from './openapi-operations';
import { operationCases } from './operation-cases';
import { renderRequest } from './request-draft';
import { TEST_DOCUMENT } from './test-document';
import { validDraft } from './valid-request';

const ops = openApiOperations(TEST_DOCUMENT);
const op = (key: string) => ops.find((o) => o.key === key)!;

function render(key: string, variant: string) {
  const operation = op(key);
  const c = operationCases(operation).find((x) => x.variant === variant);
  if (!c) throw new Error(`no case ${variant}`);
  const draft = validDraft(operation, { path: { id: 'abc' }, body: { name: 'n' } }, { 'x-k': 'v' });
  c.apply(draft);
  return renderRequest(operation, draft);
}

describe('operationCases', () => {
  it('gives every path, query and header parameter and every body field its hostile values', () => {
    const get = operationCases(op('GET /items/{id}')).map((c) => c.variant);
    for (const prefix of ['path id=', 'query limit=', 'header x-trace=', 'query limit repeated']) {
      expect(get.some((v) => v.startsWith(prefix))).toBe(true);
    }
    const put = operationCases(op('PUT /items/{id}')).map((c) => c.variant);
    for (const field of ['name', 'size', 'kind', 'owner', 'owner.email', 'tags', 'tags[0]']) {
      expect(put).toContain(`field ${field}=null`);
      expect(put).toContain(`field ${field}=nul`);
      expect(put).toContain(`field ${field}=nested-array-10000`);
      expect(put).toContain(`field ${field} removed`);
    }
    expect(put).toContain('field name duplicated (null last)');
    expect(put).toContain('body nested-object-10000');
    expect(put).toContain('body text-plain');
    expect(put.some((v) => v.startsWith('auth '))).toBe(false);
    const upload = operationCases(op('POST /uploads')).map((c) => c.variant);
    expect(upload).toContain('multipart no-boundary');
    expect(upload).toContain('multipart two-files');
    expect(upload).toContain('multipart nul-in-filename');
    expect(upload).toContain('multipart field engine=nul');
    expect(upload).toContain('auth authorization=garbage-bearer');
  });

  it('renders the valid request with the given ids, credentials and body', () => {
    const request = render('PUT /items/{id}', 'valid');
    expect(request).toMatchObject({ method: 'PUT', path: '/items/abc' });
    expect(request.headers).toMatchObject({ 'x-k': 'v', 'content-type': 'application/json' });
    expect(request.body?.toString()).toBe('{"name":"n"}');
  });

  it('renders hostile values exactly: encoded NUL, raw nesting, duplicate keys, no boundary', () => {
    expect(render('GET /items/{id}', 'path id=nul').path).toBe('/items/%00');
    expect(render('GET /items/{id}', 'path id=valid-then-nul').path).toBe('/items/abc%00');
    expect(render('GET /items/{id}', 'query limit=exp-1e20').path).toBe('/items/abc?limit=1e20');
    expect(render('PUT /items/{id}', 'field size=huge-int').body?.toString()).toBe(
      '{"name":"n","size":99999999999999999999}',
    );
    expect(render('PUT /items/{id}', 'field name duplicated (null last)').body?.toString()).toBe(
      '{"name":"n","name":null}',
    );
    const upload = render('POST /uploads', 'multipart no-boundary');
    expect(upload.headers['content-type']).toBe('multipart/form-data');
    const anon = render('GET /items/{id}', 'auth authorization=garbage-bearer');
    expect(anon.headers.authorization).toBe('Bearer garbage');
  });

  it('only puts characters an HTTP client accepts into paths and headers', () => {
    for (const key of ops.map((o) => o.key)) {
      for (const c of operationCases(op(key))) {
        const r = render(key, c.variant);
        expect(r.path).toMatch(/^[\x21-\x7e]+$/);
        for (const value of Object.values(r.headers))
          expect(value).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
      }
    }
  });
});
