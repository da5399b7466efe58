/** Escapes LIKE metacharacters (`\`, `%`, `_`) for use with `ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Substring pattern: `%value%` with the value escaped. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}

/** Glob to LIKE: everything escaped, then each `*` becomes `%` (anchored as written). */
export function globPattern(glob: string): string {
  return glob.split('*').map(escapeLike).join('%');
}
