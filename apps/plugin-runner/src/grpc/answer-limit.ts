import type { InvokeResult } from '@platform/plugin-protocol';

/**
 * The most bytes of plugin output one InvokeResult carries (`value_json`, or `error_message`
 * plus `error_detail_json`): below gRPC's default 4 MiB message limit of the findings client,
 * with room for the other fields and the framing.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024 - 64 * 1024;
/** An error message longer than this is cut (UTF-8 safe, marked) when the answer is too large. */
const MAX_ERROR_MESSAGE_BYTES = 8 * 1024;

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** `text` cut to at most `max` UTF-8 bytes without splitting a character, marked ` [cut]`. */
function cut(text: string, max: number): string {
  if (bytes(text) <= max) return text;
  let size = 0;
  let end = 0;
  for (const character of text) {
    const n = bytes(character);
    if (size + n > max - 6) break;
    size += n;
    end += character.length;
  }
  return `${text.slice(0, end)} [cut]`;
}

/**
 * An error detail that does not fit in `budget` bytes: a list keeps as many of its first items
 * as fit, as `{"truncated": true, "total": <items>, "items": [...]}` (e.g. a configuration
 * check's 10 000 problems); anything else becomes `{"truncated": true, "bytes": <size>}`.
 */
function limitDetail(json: string, budget: number): string {
  const value = JSON.parse(json) as unknown;
  if (!Array.isArray(value)) return JSON.stringify({ truncated: true, bytes: bytes(json) });
  const items: string[] = [];
  let used = 64;
  for (const item of value) {
    const text = JSON.stringify(item);
    if (used + bytes(text) + 1 > budget) break;
    items.push(text);
    used += bytes(text) + 1;
  }
  return `{"truncated":true,"total":${value.length},"items":[${items.join(',')}]}`;
}

/**
 * The answer as it may leave the runner: an ok answer over MAX_ANSWER_BYTES becomes the error
 * `answer_too_large` (the findings service refuses it; nothing is stored); an error whose
 * message and detail are over it keeps a cut message and a shortened detail. Without this the
 * findings client failed the whole call with gRPC's "Received message larger than max".
 */
export function limitAnswer(result: InvokeResult, max = MAX_ANSWER_BYTES): InvokeResult {
  if (result.ok) {
    const size = bytes(result.value_json);
    if (size <= max) return result;
    return {
      ok: false,
      value_json: '',
      error_code: 'answer_too_large',
      error_message: `the plugin answered ${size} bytes; at most ${max} are passed on`,
      error_detail_json: JSON.stringify({ bytes: size, max_bytes: max }),
      duration_ms: result.duration_ms,
    };
  }
  if (bytes(result.error_message) + bytes(result.error_detail_json) <= max) return result;
  const message = cut(result.error_message, MAX_ERROR_MESSAGE_BYTES);
  return {
    ...result,
    error_message: message,
    error_detail_json:
      result.error_detail_json === ''
        ? ''
        : limitDetail(result.error_detail_json, max - bytes(message)),
  };
}
