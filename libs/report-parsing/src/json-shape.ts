import { asNumber, JsonRecord } from './json-value';
import { structureInvalid } from './report-parse.errors';

/**
 * Type checks of the members the readers use. `null` counts as absent (serializers that write
 * every optional member emit it). Results that fail a check are skipped and counted; report
 * structure (runs, run metadata, record arrays) that fails one fails the report.
 */
export const INT32_MAX = 2_147_483_647;

/** Longest network protocol name stored (`findings.protocol`). */
export const MAX_PROTOCOL = 16;

export function absent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

export function isObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function optionalObject(value: unknown): boolean {
  return absent(value) || isObject(value);
}

export function optionalString(value: unknown): boolean {
  return absent(value) || typeof value === 'string';
}

export function optionalArray(value: unknown): boolean {
  return absent(value) || Array.isArray(value);
}

/** A SARIF array index (`-1` is SARIF's "none"). */
export function optionalIndex(value: unknown): boolean {
  return absent(value) || (Number.isInteger(value) && (value as number) >= -1);
}

/** A 1-based line or column number that fits `integer` columns. */
export function optionalLine(value: unknown): boolean {
  return (
    absent(value) ||
    (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= INT32_MAX)
  );
}

/** A TCP/UDP port, as a number or a numeric string (tool property bags use both). */
export function optionalPort(value: unknown): boolean {
  if (absent(value)) return true;
  const port = asNumber(value);
  return port !== undefined && Number.isInteger(port) && port >= 1 && port <= 65_535;
}

export function optionalProtocol(value: unknown): boolean {
  return absent(value) || (typeof value === 'string' && value.trim().length <= MAX_PROTOCOL);
}

/** A structural object member (absent: undefined); another type fails the report. */
export function structuralObject(value: unknown, path: string): JsonRecord | undefined {
  if (absent(value)) return undefined;
  if (!isObject(value)) throw structureInvalid(path, 'an object');
  return value;
}

/** A structural array of objects (absent: empty); another type fails the report. */
export function structuralObjects(value: unknown, path: string): JsonRecord[] {
  if (absent(value)) return [];
  if (!Array.isArray(value)) throw structureInvalid(path, 'an array');
  return value.map((entry, index) => {
    if (!isObject(entry)) throw structureInvalid(`${path}[${index}]`, 'an object');
    return entry;
  });
}
