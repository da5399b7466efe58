import { malformedAt } from './report-parse.errors';

const POSITION = /\s+in JSON at position (\d+)/;

/**
 * `JSON.parse` of a captured value that started at absolute byte `offset`; a syntax error
 * becomes `report_malformed` naming the absolute byte offset (the V8 message is shortened:
 * it may quote the whole value).
 */
export function parseCaptured(raw: Buffer, offset: number): unknown {
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const match = POSITION.exec(message);
    const at = match ? offset + Buffer.byteLength(text.slice(0, Number(match[1]))) : offset;
    const problem = message.replace(POSITION, '').replace(/, ".*$/s, '');
    throw malformedAt(at, problem);
  }
}
