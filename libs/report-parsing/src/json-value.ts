/** Narrowing helpers for values produced by `JSON.parse` (typed as `unknown`). */
export type JsonRecord = Record<string, unknown>;

export function asRecord(value: unknown): JsonRecord | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonRecord)
    : undefined;
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Non-empty trimmed string, or undefined. */
export function asString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Finite number from a number or a numeric string. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** Positive integer (line numbers, ports). */
export function asPositiveInt(value: unknown): number | undefined {
  const n = asNumber(value);
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** String-valued entries of an object (fingerprint maps). */
export function asStringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const record = asRecord(value);
  if (!record) return out;
  for (const [key, entry] of Object.entries(record)) {
    if (typeof entry === 'string') out[key] = entry;
    else if (typeof entry === 'number') out[key] = String(entry);
  }
  return out;
}

/** Strings of a string or string[] value. */
export function asStringList(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  if (typeof value === 'number') return [String(value)];
  const out: string[] = [];
  for (const entry of asArray(value)) {
    const s = typeof entry === 'number' ? String(entry) : asString(entry);
    if (s !== undefined) out.push(s);
  }
  return out;
}

/** First value of `keys` present in `record` (property aliases). */
export function pick(record: JsonRecord | undefined, keys: readonly string[]): unknown {
  if (!record) return undefined;
  for (const key of keys) {
    if (record[key] !== undefined && record[key] !== null) return record[key];
  }
  return undefined;
}

/** Truncates to `max` characters, marking the cut with an ellipsis. */
export function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** De-duplicates while keeping first-seen order. */
export function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
