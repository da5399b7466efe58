import type { RollupAxis } from '../findings/groups/group-axis';
import type { SortOrder } from '../findings/list/finding-sort';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '../findings/list/opaque-cursor';
import type { RollupCursor, RollupSortKey } from './inventory-rollup.sql';

/** Opaque to clients (opaque-cursor.ts). */
export function encodeRollupCursor(cursor: RollupCursor): string {
  return encodeOpaqueCursor({
    a: cursor.axis,
    s: cursor.sort,
    o: cursor.order,
    v: cursor.value,
    k: cursor.key,
  });
}

/** The cursor when well-formed and made for this axis, sort and order; otherwise undefined. */
export function decodeRollupCursor(
  text: string,
  axis: RollupAxis,
  sort: RollupSortKey,
  order: SortOrder,
): RollupCursor | undefined {
  const parsed = decodeOpaqueCursor(text);
  if (!parsed) return undefined;
  const { a, s, o, v, k } = parsed;
  if (a !== axis || s !== sort || o !== order) return undefined;
  if (typeof k !== 'string' || k.length > 32_768 || k.includes('\u0000')) return undefined;
  if (sort === 'key') return v === null ? { axis, sort, order, value: null, key: k } : undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2_147_483_647) {
    return undefined;
  }
  return { axis, sort, order, value: v, key: k };
}
