import { domainToASCII, domainToUnicode } from 'node:url';

/**
 * Host names as the perimeter keeps them: lower case, ASCII (an internationalized name in its
 * punycode `xn--` form), no trailing dot; labels of letters, digits, `-` and `_` (service
 * labels such as `_dmarc`), not starting or ending with `-`, 1..63 characters; at most 253
 * characters; the last label not all digits (`1.2.3` is no name). Shown to people in Unicode.
 */
export type HostNameProblem =
  | 'empty'
  | 'invalid_characters'
  | 'empty_label'
  | 'label_too_long'
  | 'name_too_long'
  | 'invalid_punycode'
  | 'numeric_top_label';

export type HostNameResult = { ok: true; ascii: string } | { ok: false; problem: HostNameProblem };

export const MAX_LABEL_LENGTH = 63;
export const MAX_NAME_LENGTH = 253;

function isAsciiLabelChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45 || code === 95 // a-z 0-9 - _
  );
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** Checks the labels of an ASCII, lower-case name. */
function labelProblem(ascii: string): HostNameProblem | undefined {
  if (ascii.length > MAX_NAME_LENGTH) return 'name_too_long';
  let start = 0;
  let allDigits = true;
  for (let i = 0; i <= ascii.length; i += 1) {
    const code = i === ascii.length ? 46 : ascii.charCodeAt(i);
    if (code === 46) {
      const length = i - start;
      if (length === 0) return 'empty_label';
      if (length > MAX_LABEL_LENGTH) return 'label_too_long';
      if (ascii.charCodeAt(start) === 45 || ascii.charCodeAt(i - 1) === 45) {
        return 'invalid_characters';
      }
      if (i === ascii.length && allDigits) return 'numeric_top_label';
      start = i + 1;
      allDigits = true;
      continue;
    }
    if (!isAsciiLabelChar(code)) return 'invalid_characters';
    if (code < 48 || code > 57) allDigits = false;
  }
  return undefined;
}

/** Every `xn--` label must be valid punycode that converts back to itself. */
function punycodeProblem(ascii: string): HostNameProblem | undefined {
  if (!ascii.includes('xn--')) return undefined;
  for (const label of ascii.split('.')) {
    if (!label.startsWith('xn--')) continue;
    const unicode = domainToUnicode(label);
    if (unicode === '' || unicode === label || domainToASCII(unicode) !== label) {
      return 'invalid_punycode';
    }
  }
  return undefined;
}

/** A host name (Unicode or ASCII, any case, optional trailing dot) in its stored form. */
export function normalizeHostName(input: string): HostNameResult {
  let text = input.endsWith('.') ? input.slice(0, -1) : input;
  if (text.length === 0) return { ok: false, problem: 'empty' };
  // The Unicode form can be longer than the limits only in ways the ASCII form shows; a
  // 64 KiB name is refused before any conversion.
  if (text.length > 4 * MAX_NAME_LENGTH) return { ok: false, problem: 'name_too_long' };
  let ascii: string;
  if (isAscii(text)) {
    ascii = text.toLowerCase();
  } else {
    for (const label of text.split('.')) {
      if (label.length > MAX_LABEL_LENGTH) return { ok: false, problem: 'label_too_long' };
    }
    ascii = domainToASCII(text);
    if (ascii === '' || !isAscii(ascii)) return { ok: false, problem: 'invalid_characters' };
  }
  text = ascii;
  const problem = labelProblem(text) ?? punycodeProblem(text);
  return problem ? { ok: false, problem } : { ok: true, ascii: text };
}

/** The name (or `*.name`) for people: `xn--` labels in Unicode. */
export function hostNameForDisplay(ascii: string): string {
  if (!ascii.includes('xn--')) return ascii;
  const wildcard = ascii.startsWith('*.');
  const unicode = domainToUnicode(wildcard ? ascii.slice(2) : ascii);
  if (unicode === '') return ascii;
  return wildcard ? `*.${unicode}` : unicode;
}
