// C0, DEL, C1, bidi embeddings/overrides/isolates, BOM and zero-width characters.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * True when `value` is well-formed Unicode without control or invisible direction
 * characters and 1..maxLength code points long.
 */
export function isCleanText(value: string, maxLength: number): boolean {
  if (typeof value !== 'string' || LONE_SURROGATE.test(value) || UNSAFE.test(value)) return false;
  const length = [...value].length;
  return length >= 1 && length <= maxLength;
}

/** `isCleanText` and without surrounding whitespace. */
export function isSafeText(value: string, maxLength: number): boolean {
  return isCleanText(value, maxLength) && value.trim() === value;
}
