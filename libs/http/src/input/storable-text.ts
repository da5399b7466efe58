import type { FieldProblem } from '@platform/errors';

// U+0000: PostgreSQL text and jsonb cannot hold it. An unpaired UTF-16 surrogate has no UTF-8
// form: the pg driver would silently store U+FFFD instead, and encodeURIComponent throws.
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what is refused
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_PROBLEM = 'must not contain U+0000 or unpaired UTF-16 surrogates';

/** Whether a string can be stored as PostgreSQL text exactly as given. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

function fieldName(key: string): string {
  return isStorableText(key) ? key : JSON.stringify(key).slice(1, -1);
}

function join(path: string, key: string): string {
  const name = fieldName(key);
  return path === '' ? name : `${path}.${name}`;
}

/**
 * Every field of `value` (strings and object keys, at any depth) that cannot be stored as
 * PostgreSQL text, named as a dotted path under `root` (array items by index). Walks with an
 * explicit stack, so depth costs no call stack.
 */
export function unstorableTextFields(value: unknown, root: string): FieldProblem[] {
  const fields = new Set<string>();
  const pending: { value: unknown; path: string }[] = [{ value, path: root }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (!isStorableText(current)) fields.add(path);
    } else if (typeof current === 'object' && current !== null && !(current instanceof Date)) {
      for (const [key, child] of Object.entries(current)) {
        const childPath = join(path, key);
        if (!isStorableText(key)) fields.add(childPath);
        pending.push({ value: child, path: childPath });
      }
    }
  }
  return [...fields].sort().map((field) => ({ field, problems: [UNSTORABLE_TEXT_PROBLEM] }));
}
