import { createHash } from 'node:crypto';

/**
 * The label a created task carries, which makes creation idempotent and lets a task made by
 * hand from the creation form be found: `findsvc-<finding id>` for one finding,
 * `findsvc-g-<first 16 hex of sha256 of the sorted ids>` for a group.
 */
export function ticketLabel(findingIds: string[]): string {
  const ids = [...new Set(findingIds.map((id) => id.toLowerCase()))].sort();
  if (ids.length === 1) return `findsvc-${ids[0]}`;
  const digest = createHash('sha256').update(ids.join(',')).digest('hex');
  return `findsvc-g-${digest.slice(0, 16)}`;
}
