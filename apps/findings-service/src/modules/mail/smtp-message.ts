/**
 * One plain-text message as it goes on the wire (RFC 5322 + MIME), composed without a MIME
 * library: the service's messages are one text part to plain `local@domain` mailboxes
 * (mail-settings `isMailbox`), so there is nothing to parse. Lines end in CRLF; the body is 7bit
 * when it is ASCII with short lines, else quoted-printable (RFC 2045); a non-ASCII subject is a
 * sequence of RFC 2047 `B` encoded-words; the whole is dot-stuffed for the DATA phase (RFC 5321
 * 4.5.2) and ends with the terminating `.` line.
 */

export interface ComposedMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** RFC 5322 date-time in UTC: `Mon, 30 Nov 2026 20:30:00 +0000`. */
export function rfc5322Date(at: Date): string {
  return (
    `${DAYS[at.getUTCDay()]}, ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()} ` +
    `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} +0000`
  );
}

/** One header value on one line: CR, LF and NUL become spaces. */
const oneLine = (value: string) => value.replace(/[\r\n\0]+/g, ' ');

/** Printable ASCII and tab only. */
const isPlain = (value: string) => /^[\t\x20-\x7e]*$/.test(value);

/**
 * The subject as it may stand in a header: as is when printable ASCII, else RFC 2047 `B`
 * encoded-words of at most 75 characters each (split on character boundaries), folded.
 */
export function encodeSubject(subject: string): string {
  const value = oneLine(subject);
  if (isPlain(value) && value.length <= 900) return value;
  const words: string[] = [];
  let chunk = '';
  // 45 bytes of UTF-8 give 60 base64 characters: `=?UTF-8?B?` + 60 + `?=` = 72 <= 75.
  for (const char of value) {
    if (Buffer.byteLength(chunk + char) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join('\r\n ');
}

/** Quoted-printable (RFC 2045 6.7) of CRLF-separated lines, soft breaks at 76 characters. */
export function quotedPrintable(lines: string[]): string {
  const out: string[] = [];
  for (const line of lines) {
    const bytes = Buffer.from(line, 'utf8');
    let current = '';
    for (let i = 0; i < bytes.length; i += 1) {
      const b = bytes[i] as number;
      const last = i === bytes.length - 1;
      const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
      const token = literal
        ? String.fromCharCode(b)
        : `=${b.toString(16).toUpperCase().padStart(2, '0')}`;
      if (current.length + token.length > 75) {
        out.push(`${current}=`);
        current = '';
      }
      current += token;
    }
    out.push(current);
  }
  return out.join('\r\n');
}

/** A line that starts with `.` gets another one (transparency, RFC 5321 4.5.2). */
const dotStuff = (line: string) => (line.startsWith('.') ? `.${line}` : line);

/**
 * The DATA payload of `message`, dot-stuffed and terminated by `CRLF.CRLF`. Header values are
 * forced onto one line; the body's line ends become CRLF.
 */
export function composeMessage(message: ComposedMessage, at = new Date()): Buffer {
  const lines = message.text.replace(/\r\n?/g, '\n').split('\n');
  const sevenBit = lines.every((l) => l.length <= 998 && isPlain(l));
  const headers = [
    `From: ${oneLine(message.from)}`,
    `To: ${message.to.map(oneLine).join(',\r\n ')}`,
    `Subject: ${encodeSubject(message.subject)}`,
    `Message-ID: ${oneLine(message.messageId)}`,
    `Date: ${rfc5322Date(at)}`,
    'MIME-Version: 1.0',
    ...Object.entries(message.headers).map(
      ([k, v]) => `${k.replace(/[^!-9;-~]/g, '')}: ${oneLine(v)}`,
    ),
    'Content-Type: text/plain; charset=utf-8',
    `Content-Transfer-Encoding: ${sevenBit ? '7bit' : 'quoted-printable'}`,
  ];
  const body = sevenBit ? lines.join('\r\n') : quotedPrintable(lines);
  const stuffed = body.split('\r\n').map(dotStuff).join('\r\n');
  // A body that ends with a line break already ends the last line (no empty line added).
  const end = stuffed.endsWith('\r\n') ? '.\r\n' : '\r\n.\r\n';
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${stuffed}${end}`, 'utf8');
}
