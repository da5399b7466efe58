import type { RollupAxis } from '../findings/groups/group-axis';
import type { SortOrder } from '../findings/list/finding-sort';
import type { RollupCursor, RollupSortKey } from './inventory-rollup.sql';

/** Opaque to clients: base64url of a small JSON object. */
export function encodeRollupCursor(cursor: RollupCursor): string {
  const raw = JSON.stringify({
    a: cursor.axis,
    s: cursor.sort,
    o: cursor.order,
    v: cursor.value,
    k: cursor.key,
  });
  return Buffer.from(raw, 'utf8').toString('base64url');
}

/** The cursor when well-formed and made for this axis, sort and order; otherwise undefined. */
export function decodeRollupCursor(
  text: string,
  axis: RollupAxis,
  sort: RollupSortKey,
  order: SortOrder,
): RollupCursor | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { a, s, o, v, k } = parsed as Record<string, unknown>;
  if (a !== axis || s !== sort || o !== order) return undefined;
  if (typeof k !== 'string' || k.length > 32_768 || k.includes('\u0000')) return undefined;
  if (sort === 'key') return v === null ? { axis, sort, order, value: null, key: k } : undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2_147_483_647) {
    return undefined;
  }
  return { axis, sort, order, value: v, key: k };
}
