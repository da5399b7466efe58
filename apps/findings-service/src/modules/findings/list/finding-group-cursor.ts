import {
  FINDING_GROUP_KEYS,
  type FindingGroupCursor,
  type FindingGroupKey,
} from './finding-groups.sql';
import { decodeOpaqueCursor, encodeOpaqueCursor } from './opaque-cursor';

/** Opaque to clients (opaque-cursor.ts). */
export function encodeGroupCursor(cursor: FindingGroupCursor): string {
  return encodeOpaqueCursor({ b: cursor.by, c: cursor.count, k: cursor.key });
}

/** The cursor when well-formed and made for grouping by `by`; otherwise undefined. */
export function decodeGroupCursor(
  text: string,
  by: FindingGroupKey,
): FindingGroupCursor | undefined {
  const parsed = decodeOpaqueCursor(text);
  if (!parsed) return undefined;
  const { b, c, k } = parsed;
  if (b !== by || !(FINDING_GROUP_KEYS as readonly unknown[]).includes(b)) return undefined;
  if (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > 2_147_483_647) return undefined;
  if (typeof k !== 'string' || k.length > 10_000 || k.includes('\u0000')) return undefined;
  return { by, count: c, key: k };
}
