import { jsonShapeViolation } from './json-shape';
import { RequestBodyError } from './request-body-error';

/** Deepest object/array nesting a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** Most members of one object or elements of one array (the largest bulk DTO takes 10 000). */
export const MAX_JSON_MEMBERS = 10_000;

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
 * `maxDepth` or a container with more than `MAX_JSON_MEMBERS` members is refused before
 * parsing; invalid UTF-8, invalid JSON and prototype keys are refused. Duplicate keys: the
 * last one wins (JSON.parse).
 */
export function parseJsonBody(raw: Uint8Array, maxDepth = MAX_JSON_DEPTH): unknown {
  if (isBlank(raw)) return {};
  const violation = jsonShapeViolation(raw, { maxDepth, maxMembers: MAX_JSON_MEMBERS });
  if (violation === 'too_deep') throw RequestBodyError.tooDeep(maxDepth);
  if (violation === 'too_wide') throw RequestBodyError.tooWide(MAX_JSON_MEMBERS);
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
