import { isStorableText } from '@platform/http';
import type { EnrichmentTag } from './enrichment.repository';

/** Tags one enricher may write on one finding. */
export const MAX_ENRICHMENT_TAGS = 50;
export const MAX_ENRICHMENT_TAG_KEY = 64;
export const MAX_ENRICHMENT_TAG_VALUE = 256;
/** WIT `tag.key`: lower case, 1-64 characters; the service also keeps it to a tag alphabet. */
const KEY = /^[a-z0-9][a-z0-9._:/=+@-]{0,63}$/;

/** An enricher's answer read as tags, or why it is refused (`invalid_answer`). */
export type EnrichmentTagsAnswer = { tags: EnrichmentTag[] } | { problem: string };

const kind = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;

/**
 * The tags of an enricher's answer, checked with the text rules of HTTP input: a list of at
 * most 50 `{key, value}` strings, keys in the tag alphabet (lower-cased, ≤ 64 characters),
 * values on one line (line breaks and tabs become spaces, trimmed) of at most 256 characters,
 * no U+0000 and no unpaired surrogate anywhere (PostgreSQL text cannot hold them); a repeated
 * key keeps its last value. Anything else refuses the whole answer, with the first problem.
 */
export function readEnrichmentTags(value: unknown): EnrichmentTagsAnswer {
  if (!Array.isArray(value)) return { problem: `the answer is ${kind(value)}, not a list of tags` };
  if (value.length > MAX_ENRICHMENT_TAGS) {
    return { problem: `${value.length} tags, at most ${MAX_ENRICHMENT_TAGS}` };
  }
  const byKey = new Map<string, string>();
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      return { problem: `tag ${index} is ${kind(item)}, not {key, value}` };
    }
    const { key, value: text } = item as Record<string, unknown>;
    if (typeof key !== 'string' || typeof text !== 'string') {
      return { problem: `tag ${index}: key and value must be strings` };
    }
    if (!isStorableText(key) || !isStorableText(text)) {
      return { problem: `tag ${index} contains U+0000 or an unpaired surrogate` };
    }
    const normalized = key.trim().toLowerCase();
    if (!KEY.test(normalized)) {
      return {
        problem: `tag ${index}: the key must be 1-${MAX_ENRICHMENT_TAG_KEY} characters of a-z 0-9 . _ : / = + @ -`,
      };
    }
    const line = text.replace(/[\r\n\t]+/g, ' ').trim();
    if (line.length > MAX_ENRICHMENT_TAG_VALUE) {
      return {
        problem: `tag ${index}: the value has ${line.length} characters, at most ${MAX_ENRICHMENT_TAG_VALUE}`,
      };
    }
    byKey.set(normalized, line);
  }
  return { tags: [...byKey].map(([key, text]) => ({ key, value: text })) };
}

/** The tags of an answer, or undefined when it is refused (see readEnrichmentTags). */
export function enrichmentTagsOf(value: unknown): EnrichmentTag[] | undefined {
  const answer = readEnrichmentTags(value);
  return 'tags' in answer ? answer.tags : undefined;
}
