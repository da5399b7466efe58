/**
 * What one action-log entry changed, field by field, for people: the entry's `from` and `to`
 * objects compared key by key (a field absent on one side was empty there). Fields that did
 * not change are left out; the order is the log's own (`to`, then what only `from` had).
 */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

const same = (a: unknown, b: unknown): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function fieldChanges(
  from: Record<string, unknown> | null | undefined,
  to: Record<string, unknown> | null | undefined,
): FieldChange[] {
  const before = from ?? {};
  const after = to ?? {};
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return fields
    .filter((field) => !same(before[field], after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** How a logged value reads: empty as a dash, times and lists formatted, labels looked up. */
export type ValueKind = 'empty' | 'time' | 'status' | 'list' | 'text';

export function valueKind(field: string, value: unknown): ValueKind {
  if (value === null || value === undefined || value === '') return 'empty';
  if (Array.isArray(value)) return value.length === 0 ? 'empty' : 'list';
  if (field === 'status' && typeof value === 'string') return 'status';
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return 'time';
  return 'text';
}

/** A value as text, without locale (times and statuses are formatted by the caller). */
export function plainValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => plainValue(v)).join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
