/** Where a piece of a term's pattern lies in it: `substr(pattern, start, length)` (1-based). */
export interface PatternPiece {
  start: number;
  length: number;
  text: string;
}

/** A letter or a digit (what pg_trgm builds its trigrams from). */
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** LIKE's metacharacters and the escape: never at the edge of a piece. */
const LIKE_SYNTAX = new Set(['\\', '%', '_']);

/**
 * The pieces of a containsPattern (`%term%`, escaped) worth probing the trigram index with on
 * their own: each run of three or more letters or digits, with the character before and after
 * it when that is a plain separator (a space, `-`, `/`, `:`...: pg_trgm then also reads the
 * run's word-boundary trigrams, which are rarer). A piece is a substring of the term and never
 * cuts an escape, so `%piece%` matches every text the whole pattern matches. At most `max`.
 */
export function patternPieces(pattern: string, max = 4): PatternPiece[] {
  const chars = [...pattern];
  const pieces: PatternPiece[] = [];
  const plainSeparator = (i: number) =>
    i > 0 && i < chars.length - 1 && !WORD_CHAR.test(chars[i]) && !LIKE_SYNTAX.has(chars[i]);
  let i = 1;
  while (i < chars.length - 1 && pieces.length < max) {
    if (!WORD_CHAR.test(chars[i])) {
      i++;
      continue;
    }
    let end = i;
    while (end < chars.length - 1 && WORD_CHAR.test(chars[end])) end++;
    if (end - i >= 3) {
      // An escaped metacharacter's backslash is never a plain separator, and the character after
      // a backslash is never taken alone: `\%` before a run leaves the run bare.
      const from = plainSeparator(i - 1) && chars[i - 2] !== '\\' ? i - 1 : i;
      const to = plainSeparator(end) ? end + 1 : end;
      const text = chars.slice(from, to).join('');
      // substr counts characters, as this does (code points).
      pieces.push({ start: from + 1, length: to - from, text });
    }
    i = end;
  }
  return pieces;
}
