import type { EnrichmentTag } from './enrichment.repository';

/** Tags one enricher may write on one finding. */
export const MAX_ENRICHMENT_TAGS = 50;
export const MAX_ENRICHMENT_TAG_KEY = 64;
export const MAX_ENRICHMENT_TAG_VALUE = 256;
/** WIT `tag.key`: lower case, 1-64 characters; the service also keeps it to a tag alphabet. */
const KEY = /^[a-z0-9][a-z0-9._:/=+@-]{0,63}$/;

/**
 * The tags of an enricher's answer, checked: a list of `{key, value}` strings, keys in the tag
 * alphabet (lower-cased), values trimmed to one line of at most 256 characters; a repeated
 * key keeps its last value. Anything else in the answer is a plugin fault (undefined).
 */
export function enrichmentTagsOf(value: unknown): EnrichmentTag[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_ENRICHMENT_TAGS) return undefined;
  const byKey = new Map<string, string>();
  for (const item of value) {
    if (typeof item !== 'object' || item === null) return undefined;
    const { key, value: text } = item as Record<string, unknown>;
    if (typeof key !== 'string' || typeof text !== 'string') return undefined;
    const normalized = key.trim().toLowerCase();
    if (!KEY.test(normalized)) return undefined;
    byKey.set(
      normalized,
      text
        .replace(/[\r\n\t]+/g, ' ')
        .trim()
        .slice(0, MAX_ENRICHMENT_TAG_VALUE),
    );
  }
  return [...byKey].map(([key, text]) => ({ key, value: text }));
}
