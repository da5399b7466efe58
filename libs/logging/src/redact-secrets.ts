import { loggableError } from './logged-error';
import { isSecretField, REDACTED, scrubSecretText } from './secret-fields';

/** Deeper values are replaced (pino itself stops serializing at depth 5). */
const MAX_DEPTH = 10;

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function carriesSecret(value: unknown): boolean {
  return (
    value !== null && value !== undefined && typeof value !== 'boolean' && typeof value !== 'number'
  );
}

function walk(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return scrubSecretText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return loggableError(value);
  // Requests, responses, dates, buffers: left to pino's serializers and redact paths.
  if (!Array.isArray(value) && !isPlainObject(value)) return value;
  if (ancestors.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1, ancestors));
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      copy[key] =
        isSecretField(key) && carriesSecret(field) ? REDACTED : walk(field, depth + 1, ancestors);
    }
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * A copy of a log line's fields with secret-named fields replaced by `[redacted]` at any depth,
 * errors in their LoggedError form and secret-shaped text scrubbed from every string.
 */
export function redactSecrets(fields: Record<string, unknown>): Record<string, unknown> {
  return walk(fields, 0, new Set()) as Record<string, unknown>;
}
