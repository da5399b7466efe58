import { openApiOperations, type JsonSchema } from './openapi-operations';
import { pointerLabel, sampleValue, schemaFields } from './schema-sample';
import { TEST_DOCUMENT } from './test-document';

describe('sampleValue', () => {
  it('prefers example, then enum, then a value of the type and format', () => {
    expect(sampleValue({ type: 'string', example: 'x' })).toBe('x');
    expect(sampleValue({ type: 'string', enum: ['b', 'c'] })).toBe('b');
    expect(sampleValue({ type: 'integer', minimum: 5 })).toBe(5);
    expect(sampleValue({ type: 'boolean' })).toBe(true);
    expect(sampleValue({ type: 'string', format: 'uuid' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(sampleValue({ type: 'string' }, 'owner_email')).toBe('fuzz-sample@example.test');
    expect(String(sampleValue({ type: 'string', minLength: 30 })).length).toBeGreaterThanOrEqual(
      30,
    );
  });

  it('fills the required properties of an object only', () => {
    const put = openApiOperations(TEST_DOCUMENT).find((o) => o.key === 'PUT /items/{id}')!;
    expect(sampleValue(put.body!.json!)).toEqual({ name: 'widget' });
  });
});

describe('schemaFields', () => {
  it('reaches nested objects and array items', () => {
    const put = openApiOperations(TEST_DOCUMENT).find((o) => o.key === 'PUT /items/{id}')!;
    expect(schemaFields(put.body!.json!).map((f) => pointerLabel(f.pointer))).toEqual([
      'name',
      'size',
      'kind',
      'owner',
      'owner.email',
      'tags',
      'tags[0]',
    ]);
  });

  it('stops at the depth limit on a self-referencing schema', () => {
    const node: JsonSchema = { type: 'object', properties: {} };
    node.properties = { child: node };
    expect(schemaFields(node, 3)).toHaveLength(3);
  });
});
