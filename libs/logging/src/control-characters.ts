/**
 * C0 controls (line feed, carriage return, escape, ...), DEL, C1 controls and the Unicode line
 * and paragraph separators: what could start a line, move the cursor or recolour a terminal
 * when a log line is shown as text.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  return NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character written as an escape (`\n`, `\r`, `\t`, `\u001b`, ...):
 * a message can no longer start what looks like another line of the log, in a pretty
 * terminal sink as in JSON. A backslash is left as it is (escaping is not meant to be undone).
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL, escapeOne);
}
