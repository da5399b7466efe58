/**
 * RFC 4515 section 3: inside a filter value `*`, `(`, `)`, `\` and NUL are escaped as `\XX`;
 * other control characters are escaped too. Non-ASCII characters stay as they are (the RFC's
 * UTF-8 `normal` characters): the client encodes the value as UTF-8, and escaping their bytes
 * one by one would make it decode them as separate characters. Nothing the caller sent can end
 * the assertion or start another one.
 */
export function escapeFilterValue(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    out +=
      code < 0x20 || code === 0x7f || '*()\\'.includes(char)
        ? `\\${code.toString(16).padStart(2, '0')}`
        : char;
  }
  return out;
}

/** An equality filter `(attribute=value)`; the attribute name was validated at save. */
export function equalityFilter(attribute: string, value: string): string {
  if (!ATTRIBUTE.test(attribute)) throw new Error('invalid attribute description');
  return `(${attribute}=${escapeFilterValue(value)})`;
}

/** An attribute description: a name (letters, digits, hyphens) or an OID. */
export const ATTRIBUTE = /^(?:[A-Za-z][A-Za-z0-9-]{0,63}|\d+(?:\.\d+){1,30})$/;
