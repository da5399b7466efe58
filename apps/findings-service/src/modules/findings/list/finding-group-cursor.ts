import {
  FINDING_GROUP_KEYS,
  type FindingGroupCursor,
  type FindingGroupKey,
} from './finding-groups.sql';

/** Opaque to clients: base64url of a small JSON object. */
export function encodeGroupCursor(cursor: FindingGroupCursor): string {
  const raw = JSON.stringify({ b: cursor.by, c: cursor.count, k: cursor.key });
  return Buffer.from(raw, 'utf8').toString('base64url');
}

/** The cursor when well-formed and made for grouping by `by`; otherwise undefined. */
export function decodeGroupCursor(
  text: string,
  by: FindingGroupKey,
): FindingGroupCursor | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { b, c, k } = parsed as Record<string, unknown>;
  if (b !== by || !(FINDING_GROUP_KEYS as readonly unknown[]).includes(b)) return undefined;
  if (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > 2_147_483_647) return undefined;
  if (typeof k !== 'string' || k.length > 10_000 || k.includes('\u0000')) return undefined;
  return { by, count: c, key: k };
}
