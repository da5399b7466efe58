import {
  REMOVE_FIELD,
  jsonWithDuplicateKey,
  jsonWithRawFields,
  valueAt,
  withValueAt,
} from './json-body';
import { deepArray } from './hostile-values';

describe('JSON body builders', () => {
  const root = { name: 'a', owner: { email: 'e@x' }, tags: ['t'] };

  it('places raw JSON text at any pointer, several at once', () => {
    const body = jsonWithRawFields(root, [
      { pointer: ['owner', 'email'], raw: '"\\ud800"' },
      { pointer: ['tags', 0], raw: 'null' },
    ]);
    expect(body.toString()).toBe('{"name":"a","owner":{"email":"\\ud800"},"tags":[null]}');
    const parsed = JSON.parse(body.toString()) as { owner: { email: string } };
    expect(parsed.owner.email).toBe('\ud800');
  });

  it('can send bytes that are not UTF-8 and nesting deeper than JSON.stringify allows', () => {
    const bytes = jsonWithRawFields(root, [
      { pointer: ['name'], raw: Buffer.from([0x22, 0xff, 0x22]) },
    ]);
    expect(bytes.includes(Buffer.from([0xff]))).toBe(true);
    const deep = jsonWithRawFields(root, [{ pointer: ['name'], raw: deepArray(10_000) }]);
    expect(deep.length).toBeGreaterThan(20_000);
    expect(jsonWithRawFields(undefined, [{ pointer: [], raw: '[]' }]).toString()).toBe('[]');
  });

  it('creates missing containers and removes fields without touching the original', () => {
    expect(withValueAt({}, ['a', 0, 'b'], 1)).toEqual({ a: [{ b: 1 }] });
    expect(withValueAt(root, ['owner', 'email'], REMOVE_FIELD)).toEqual({
      name: 'a',
      owner: {},
      tags: ['t'],
    });
    expect(root.owner.email).toBe('e@x');
    expect(valueAt(root, ['tags', 0])).toBe('t');
    expect(valueAt(root, ['name', 'x'])).toBeUndefined();
  });

  it('writes the same key twice, in the order asked', () => {
    const text = jsonWithDuplicateKey({ name: 'a', size: 1 }, 'name', '"first"', 'null').toString();
    expect(text).toBe('{"size":1,"name":"first","name":null}');
    expect(JSON.parse(text)).toEqual({ size: 1, name: null });
  });
});
