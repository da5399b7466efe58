import { openApiOperations } from './openapi-operations';
import { TEST_DOCUMENT } from './test-document';

describe('openApiOperations', () => {
  const ops = openApiOperations(TEST_DOCUMENT);
  const byKey = (key: string) => ops.find((o) => o.key === key)!;

  it('lists every operation of every path', () => {
    expect(ops.map((o) => o.key)).toEqual(['GET /items/{id}', 'PUT /items/{id}', 'POST /uploads']);
  });

  it('merges path-level parameters and keeps one of two header spellings', () => {
    const get = byKey('GET /items/{id}');
    expect(get.parameters.map((p) => `${p.in}:${p.name}:${p.required}`)).toEqual([
      'path:id:true',
      'query:limit:false',
      'header:x-trace:false',
    ]);
  });

  it('resolves $refs inside request bodies, nested ones included', () => {
    const put = byKey('PUT /items/{id}');
    expect(put.body?.required).toBe(true);
    expect(put.body?.json?.required).toEqual(['name']);
    expect(put.body?.json?.properties?.owner?.properties?.email?.format).toBe('email');
    expect(byKey('POST /uploads').body?.multipart?.properties?.file?.format).toBe('binary');
  });

  it('takes the security of the operation, else of the document', () => {
    expect(byKey('GET /items/{id}').security).toEqual(['bearer']);
    expect(byKey('PUT /items/{id}').security).toEqual([]);
    expect(byKey('POST /uploads').security).toEqual(['bearer', 'api_key']);
  });

  it('refuses something that is not an OpenAPI document', () => {
    expect(() => openApiOperations({ swagger: '2.0' })).toThrow(/OpenAPI/);
  });
});
