import type { FieldPointer } from './schema-sample';

const SENTINEL = 'fuzz-sentinel-0b7c1d';
export const REMOVE_FIELD = Symbol('remove-field');

function clone(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

/** A copy of `root` with `value` placed at `pointer` (missing containers are created). */
export function withValueAt(root: unknown, pointer: FieldPointer, value: unknown): unknown {
  if (pointer.length === 0) return value;
  const out = clone(root);
  const top: Record<string | number, unknown> =
    typeof out === 'object' && out !== null ? (out as Record<string, unknown>) : {};
  let node: Record<string | number, unknown> = top;
  pointer.forEach((part, i) => {
    const last = i === pointer.length - 1;
    if (last) {
      if (value === REMOVE_FIELD) {
        if (Array.isArray(node)) node.splice(Number(part), 1);
        else delete node[part];
      } else {
        node[part] = value;
      }
      return;
    }
    const next = node[part];
    if (typeof next !== 'object' || next === null) {
      node[part] = typeof pointer[i + 1] === 'number' ? [] : {};
    }
    node = node[part] as Record<string | number, unknown>;
  });
  return top;
}

/** The field's current value in `root` (for hostile values derived from it). */
export function valueAt(root: unknown, pointer: FieldPointer): unknown {
  let node: unknown = root;
  for (const part of pointer) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

export interface RawField {
  pointer: FieldPointer;
  raw: string | Buffer;
}

/** JSON text of `root` with raw JSON (text or bytes) placed at each field's pointer. */
export function jsonWithRawFields(root: unknown, fields: readonly RawField[]): Buffer {
  let value = root;
  fields.forEach((field, i) => {
    value = withValueAt(value, field.pointer, `${SENTINEL}${i}`);
  });
  const textOf = JSON.stringify(value) ?? '';
  const chunks: Buffer[] = [];
  let rest = textOf;
  const marker = new RegExp(`"${SENTINEL}(\\d+)"`);
  for (;;) {
    const match = marker.exec(rest);
    if (!match) break;
    chunks.push(Buffer.from(rest.slice(0, match.index)));
    const raw = fields[Number(match[1])]?.raw ?? 'null';
    chunks.push(typeof raw === 'string' ? Buffer.from(raw) : raw);
    rest = rest.slice(match.index + match[0].length);
  }
  chunks.push(Buffer.from(rest));
  return Buffer.concat(chunks);
}

/**
 * `{...root, key: first, key: second}` as raw text: two members with the same name in one
 * object (JSON.parse keeps the last; other parsers keep the first or refuse).
 */
export function jsonWithDuplicateKey(
  root: Record<string, unknown>,
  key: string,
  first: string | Buffer,
  second: string | Buffer,
): Buffer {
  const rest = { ...root };
  delete rest[key];
  const inner = JSON.stringify(rest).slice(1, -1);
  const name = JSON.stringify(key);
  return Buffer.concat([
    Buffer.from(`{${inner}${inner ? ',' : ''}${name}:`),
    Buffer.from(first),
    Buffer.from(`,${name}:`),
    Buffer.from(second),
    Buffer.from('}'),
  ]);
}
