/**
 * A SARIF message's embedded links (SARIF 2.1.0 §3.11.6): `[text](1)` points at the result's
 * related location with id 1, `[text](https://…)` at an address; `\[` and `\]` are literal
 * brackets. The text is split into plain parts and links, so nothing of it is read as markup.
 */
export type MessagePart =
  | { kind: 'text'; text: string }
  | { kind: 'related'; text: string; id: number }
  | { kind: 'url'; text: string; url: string };

/** A link starting at `message[start]` (`[`): its text, target and end, or undefined. */
function linkAt(
  message: string,
  start: number,
): { text: string; target: string; end: number } | undefined {
  let text = '';
  let i = start + 1;
  for (; i < message.length && message[i] !== ']'; i++) {
    if (message[i] === '\\' && i + 1 < message.length && '[]\\'.includes(message[i + 1] ?? '')) i++;
    text += message[i];
  }
  if (message[i] !== ']' || message[i + 1] !== '(') return undefined;
  const close = message.indexOf(')', i + 2);
  if (close < 0) return undefined;
  const target = message.slice(i + 2, close);
  return /\s/.test(target) ? undefined : { text, target, end: close + 1 };
}

export function messageParts(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let plain = '';
  const flush = () => {
    if (plain) parts.push({ kind: 'text', text: plain });
    plain = '';
  };
  for (let i = 0; i < message.length; i++) {
    const c = message[i] ?? '';
    if (c === '\\' && '[]\\'.includes(message[i + 1] ?? 'x')) {
      plain += message[++i];
      continue;
    }
    const link = c === '[' ? linkAt(message, i) : undefined;
    if (!link) {
      plain += c;
      continue;
    }
    i = link.end - 1;
    if (/^\d+$/.test(link.target)) {
      flush();
      parts.push({ kind: 'related', text: link.text, id: Number(link.target) });
    } else if (/^https?:\/\//i.test(link.target)) {
      flush();
      parts.push({ kind: 'url', text: link.text, url: link.target });
    } else {
      plain += link.text;
    }
  }
  flush();
  return parts;
}
