/** A paging cursor as clients see it: opaque, base64url of a small JSON object. */
export function encodeOpaqueCursor(fields: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
}

/** The fields of a cursor made by encodeOpaqueCursor; undefined when it is not one. */
export function decodeOpaqueCursor(text: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}
