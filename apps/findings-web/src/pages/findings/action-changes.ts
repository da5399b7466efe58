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

/** A person the log names: `{id, email, display_name}` as the API resolves an assignee. */
function personText(person: unknown): string | null {
  if (typeof person !== 'object' || person === null) return null;
  const p = person as { email?: unknown; display_name?: unknown };
  const email = typeof p.email === 'string' ? p.email : '';
  const name = typeof p.display_name === 'string' ? p.display_name.trim() : '';
  if (name && email && name !== email) return `${name} (${email})`;
  return name || email || null;
}

/**
 * One side of an entry as people read it: the `assignee_id` (a UUID) and the `assignee` the API
 * resolves beside it become one `assignee` field, the person's name and e-mail (a removed
 * user: `deletedUser`); null when unassigned.
 */
export function readableSide(
  side: Record<string, unknown> | null | undefined,
  deletedUser = 'deleted user',
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(side ?? {}) };
  if ('assignee_id' in out || 'assignee' in out) {
    const id = out['assignee_id'];
    const person = personText(out['assignee']);
    delete out['assignee_id'];
    out['assignee'] = person ?? (typeof id === 'string' && id !== '' ? deletedUser : null);
  }
  return out;
}

export function fieldChanges(
  from: Record<string, unknown> | null | undefined,
  to: Record<string, unknown> | null | undefined,
  deletedUser?: string,
): FieldChange[] {
  const before = readableSide(from, deletedUser);
  const after = readableSide(to, deletedUser);
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return fields
    .filter((field) => !same(before[field], after[field]))
    .map((field) => ({ field, before: before[field], after: after[field] }));
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** How a logged value reads: empty as a dash, times and lists formatted, labels looked up. */
export type ValueKind = 'empty' | 'time' | 'status' | 'severity' | 'report' | 'list' | 'text';

export function valueKind(field: string, value: unknown): ValueKind {
  if (value === null || value === undefined || value === '') return 'empty';
  if (Array.isArray(value)) return value.length === 0 ? 'empty' : 'list';
  if (field === 'status' && typeof value === 'string') return 'status';
  if (field === 'severity' && typeof value === 'string') return 'severity';
  if (field === 'report_id' && typeof value === 'string') return 'report';
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) return 'time';
  return 'text';
}

/** A value as text, without locale (times and statuses are formatted by the caller). */
export function plainValue(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => plainValue(v)).join(', ');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
