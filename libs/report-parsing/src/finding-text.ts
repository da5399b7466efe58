import { JsonRecord } from './json-value';

/** Scanner name length ceiling (characters; `findings.scanner` is varchar(200)). */
export const MAX_SCANNER = 200;
/** Title length ceiling (characters). */
export const MAX_TITLE = 200;
/** Description length ceiling (characters); longer messages are cut with an ellipsis. */
export const MAX_DESCRIPTION = 16 * 1024;
/** Ceiling of the serialized raw-properties subset kept on a finding. */
export const MAX_PROPERTIES_JSON = 4096;
const MAX_PROPERTY_KEYS = 32;
const SKIPPED_PROPERTIES = new Set(['tags']);

/** First non-empty line of a message, without trailing punctuation noise. */
export function firstLine(text: string): string | undefined {
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return undefined;
}

/**
 * Subset of raw properties: up to 32 keys (tags excluded: they are mapped) while the JSON
 * stays within 4 KiB; a value that does not fit is left out.
 */
export function boundedProperties(properties: JsonRecord | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!properties) return out;
  let size = 2;
  let count = 0;
  for (const [key, value] of Object.entries(properties)) {
    if (SKIPPED_PROPERTIES.has(key) || value === undefined) continue;
    const cost = key.length + 4 + (JSON.stringify(value)?.length ?? 0);
    if (size + cost > MAX_PROPERTIES_JSON) continue;
    out[key] = value;
    size += cost;
    count += 1;
    if (count >= MAX_PROPERTY_KEYS) break;
  }
  return out;
}
