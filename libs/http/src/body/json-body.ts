import { exceedsJsonDepth } from './json-depth';
import { RequestBodyError } from './request-body-error';

/** Deepest object/array nesting a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isBlank(raw: Uint8Array): boolean {
  for (const byte of raw) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  }
  return true;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

// A `__proto__` key (or `constructor.prototype`) does no harm inside JSON.parse's result, but
// any later merge or class-transformer copy would turn it into a prototype change.
function refusePrototypeKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || (key === 'constructor' && isObject(value) && 'prototype' in value)) {
    throw RequestBodyError.malformed(`holds the forbidden key ${key}`);
  }
  return value;
}

function mayHoldPrototypeKeys(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
}

/**
 * Parses a JSON request body: an empty (or blank) body is `{}`; nesting deeper than
 * `maxDepth` is refused before parsing; invalid UTF-8, invalid JSON and prototype keys are
 * refused. Duplicate keys: the last one wins (JSON.parse).
 */
export function parseJsonBody(raw: Uint8Array, maxDepth = MAX_JSON_DEPTH): unknown {
  if (isBlank(raw)) return {};
  if (exceedsJsonDepth(raw, maxDepth)) throw RequestBodyError.tooDeep(maxDepth);
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw RequestBodyError.malformed('is not valid UTF-8');
  }
  try {
    return mayHoldPrototypeKeys(text) ? JSON.parse(text, refusePrototypeKeys) : JSON.parse(text);
  } catch (error) {
    if (error instanceof RequestBodyError) throw error;
    throw RequestBodyError.malformed('is not valid JSON');
  }
}
