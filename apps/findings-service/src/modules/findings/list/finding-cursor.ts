import { isUUID } from 'class-validator';
import type { FindingSortKey, SortOrder } from './finding-sort';
import { decodeOpaqueCursor, encodeOpaqueCursor } from './opaque-cursor';

/** Position after the last row of a page: its sort value (when the key is not `id`) and id. */
export interface FindingCursor {
  sort: FindingSortKey;
  order: SortOrder;
  value: string | number | null;
  id: string;
}

/** PostgreSQL's text form of timestamptz, e.g. `2025-01-31 12:00:00.123456+00`. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2}){0,2}|Z)$/;
/** Opaque to clients (opaque-cursor.ts). */
export function encodeCursor(cursor: FindingCursor): string {
  return encodeOpaqueCursor({ s: cursor.sort, o: cursor.order, v: cursor.value, i: cursor.id });
}

/** The cursor when well-formed and made for this sort and order; otherwise undefined. */
export function decodeCursor(
  text: string,
  sort: FindingSortKey,
  order: SortOrder,
): FindingCursor | undefined {
  const parsed = decodeOpaqueCursor(text);
  if (!parsed) return undefined;
  const { s, o, v, i } = parsed;
  if (s !== sort || o !== order || typeof i !== 'string' || !isUUID(i, 'loose')) return undefined;
  if (sort === 'id') return v === null ? { sort, order, value: null, id: i } : undefined;
  if (sort === 'severity' || sort === 'status') {
    return typeof v === 'number' && Number.isInteger(v)
      ? { sort, order, value: v, id: i }
      : undefined;
  }
  return typeof v === 'string' && TIMESTAMP.test(v) ? { sort, order, value: v, id: i } : undefined;
}
