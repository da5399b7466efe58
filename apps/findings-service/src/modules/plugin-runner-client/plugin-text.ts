/** The most bytes of a plugin's error text the findings service keeps, logs or answers. */
export const PLUGIN_TEXT_MAX_BYTES = 2048;

const CUT = ' [cut]';

/**
 * `text` cut to `maxBytes` of UTF-8 (never inside a character), marked ` [cut]`: the same cap
 * as the runner's on a plugin's log lines. A plugin's error text reaches the service's logs,
 * a job's failure reason and answers; a 1 MiB text must not become a 1 MiB log line.
 */
export function capPluginText(text: string, maxBytes = PLUGIN_TEXT_MAX_BYTES): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const limit = maxBytes - Buffer.byteLength(CUT);
  let kept = '';
  let used = 0;
  // By code point: a character the cap would split is left out whole.
  for (const char of text) {
    const size = Buffer.byteLength(char, 'utf8');
    if (used + size > limit) break;
    kept += char;
    used += size;
  }
  return `${kept}${CUT}`;
}
