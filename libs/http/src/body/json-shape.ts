const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

export interface JsonShapeBounds {
  /** Deepest object/array nesting (`{}` is depth 1). */
  maxDepth: number;
  /** Most members of one object or elements of one array. */
  maxMembers: number;
}

export type JsonShapeViolation = 'too_deep' | 'too_wide' | null;

/**
 * Whether JSON text nests deeper or holds wider containers than the bounds. A linear scan of
 * the raw bytes outside strings with one counter per open level: no recursion, no allocation
 * per node, so a hostile body is measured before anything parses, transforms or validates it
 * (a 100 000-element array costs seconds of validation otherwise). The ASCII bytes it looks
 * at never occur inside a multi-byte UTF-8 sequence.
 */
export function jsonShapeViolation(raw: Uint8Array, bounds: JsonShapeBounds): JsonShapeViolation {
  const separators = new Uint32Array(bounds.maxDepth + 1);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === COMMA) {
      // n members are separated by n - 1 commas.
      if (depth > 0 && ++separators[depth] >= bounds.maxMembers) return 'too_wide';
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > bounds.maxDepth) return 'too_deep';
      separators[depth] = 0;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return null;
}
