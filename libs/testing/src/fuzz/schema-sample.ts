import type { JsonSchema } from './openapi-operations';

/** Path into a JSON body: property names and array indexes. */
export type FieldPointer = (string | number)[];

export interface SchemaField {
  pointer: FieldPointer;
  schema: JsonSchema;
}

function merged(schema: JsonSchema): JsonSchema {
  const parts = [...(schema.allOf ?? []), ...(schema.oneOf ?? []).slice(0, 1)];
  if (parts.length === 0) return schema;
  return parts.reduce<JsonSchema>(
    (acc, part) => {
      const p = merged(part);
      return {
        ...acc,
        ...p,
        properties: { ...acc.properties, ...p.properties },
        required: [...(acc.required ?? []), ...(p.required ?? [])],
      };
    },
    { ...schema, allOf: undefined, oneOf: undefined },
  );
}

const SAMPLE_BY_FORMAT: Record<string, () => string> = {
  uuid: () => '3f2b8c1e-7d4a-4e5b-9c6d-0a1b2c3d4e5f',
  'date-time': () => new Date(Date.now() + 7 * 86_400_000).toISOString(),
  date: () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  email: () => 'fuzz-sample@example.test',
  uri: () => 'https://example.test/fuzz/sample',
  url: () => 'https://example.test/fuzz/sample',
  binary: () => 'fuzz',
};

function sampleString(schema: JsonSchema, name: string): string {
  const byFormat = schema.format ? SAMPLE_BY_FORMAT[schema.format] : undefined;
  if (byFormat) return byFormat();
  if (/email/i.test(name)) return 'fuzz-sample@example.test';
  if (/url|uri/i.test(name)) return 'https://example.test/fuzz/sample';
  const min = schema.minLength ?? 0;
  const base = `fuzz-${name || 'value'}`;
  const long = base.length >= min ? base : base.padEnd(min, 'x');
  return schema.maxLength !== undefined ? long.slice(0, Math.max(schema.maxLength, min)) : long;
}

/**
 * A valid-looking value for `schema`: its example, first enum value, or a plain value of its
 * type. Objects get their required properties only (fuzz cases add the optional ones).
 */
export function sampleValue(schema: JsonSchema, name = ''): unknown {
  const s = merged(schema);
  if (s.example !== undefined) return s.example;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (s.type ?? '') {
    case 'string':
      return sampleString(s, name);
    case 'integer':
    case 'number':
      return s.minimum !== undefined ? Math.max(s.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array': {
      const count = Math.max(s.minItems ?? 1, 1);
      return Array.from({ length: count }, () => sampleValue(s.items ?? {}, name));
    }
    default:
      break;
  }
  if (s.type === 'object' || s.properties) {
    const out: Record<string, unknown> = {};
    for (const key of s.required ?? []) {
      out[key] = sampleValue(s.properties?.[key] ?? {}, key);
    }
    return out;
  }
  return sampleString(s, name);
}

/**
 * Every field reachable in a body of `schema` (nested objects and the first array item),
 * down to `maxDepth` levels.
 */
export function schemaFields(schema: JsonSchema, maxDepth = 4): SchemaField[] {
  const out: SchemaField[] = [];
  const walk = (node: JsonSchema, pointer: FieldPointer, depth: number): void => {
    if (depth >= maxDepth) return;
    const s = merged(node);
    for (const [key, child] of Object.entries(s.properties ?? {})) {
      const childPointer = [...pointer, key];
      out.push({ pointer: childPointer, schema: child });
      walk(child, childPointer, depth + 1);
    }
    if (s.type === 'array' && s.items) {
      const itemPointer = [...pointer, 0];
      out.push({ pointer: itemPointer, schema: s.items });
      walk(s.items, itemPointer, depth + 1);
    }
  };
  walk(schema, [], 0);
  return out;
}

/** `a.b[0].c` for reports. */
export function pointerLabel(pointer: FieldPointer): string {
  return pointer
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}
