import { InputValidationError } from '@platform/errors';

export const MAX_TAG_LENGTH = 64;
export const MAX_TAGS_PER_FINDING = 50;
/** Letters and digits first, then also `. _ : / = + @ -`; no spaces. Case is folded. */
const TAG = /^[\p{L}\p{N}][\p{L}\p{N}._:/=+@-]*$/u;

/**
 * Canonical manual tags: trimmed, lower-cased, de-duplicated, sorted. Refuses (400, field
 * `field`) empty tags, tags over 64 characters and characters outside the tag alphabet.
 */
export function normalizeTags(tags: readonly string[], field: string): string[] {
  const problems: string[] = [];
  const out = new Set<string>();
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase();
    if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) {
      problems.push(`"${raw.slice(0, 80)}": a tag has 1 to ${MAX_TAG_LENGTH} characters`);
    } else if (!TAG.test(tag)) {
      problems.push(`"${raw.slice(0, 80)}": letters, digits and . _ : / = + @ - only`);
    } else {
      out.add(tag);
    }
  }
  if (problems.length > 0) throw new InputValidationError([{ field, problems }]);
  return [...out].sort();
}

/** The manual tags after adding and removing (sorted, unique). */
export function applyTagChange(
  current: readonly string[],
  add: readonly string[],
  remove: readonly string[],
): string[] {
  const drop = new Set(remove);
  return [...new Set([...current, ...add])].filter((t) => !drop.has(t)).sort();
}

/** `tag_added`, `tag_removed`, or `tags_changed` when a change does both. */
export function tagAction(
  before: readonly string[],
  after: readonly string[],
): 'tag_added' | 'tag_removed' | 'tags_changed' | undefined {
  const added = after.some((t) => !before.includes(t));
  const removed = before.some((t) => !after.includes(t));
  if (added && removed) return 'tags_changed';
  if (added) return 'tag_added';
  return removed ? 'tag_removed' : undefined;
}
