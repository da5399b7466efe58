import { JsonStructureScanner, ScanAction, ScanFrame, ScanHandler } from './json-structure-scanner';
import { ReportParseError } from './report-parse.errors';

/** Descends root and arrays at depth ≤ 2, captures everything else with its path. */
class Recorder implements ScanHandler {
  readonly captured: string[] = [];
  readonly closed: number[] = [];

  onValue(frames: readonly ScanFrame[], first: number): ScanAction {
    if (frames.length === 0) return 'descend';
    if (frames.length === 1 && frames[0].key === 'list' && first === 0x5b) return 'descend';
    if (frames.length === 1 && frames[0].key === 'skipped') return 'skip';
    return 'capture';
  }

  onCapture(frames: readonly ScanFrame[], raw: Buffer, offset: number): void {
    const path = frames.map((f) => (f.container === 'object' ? f.key : f.index)).join('.');
    this.captured.push(`${path}@${offset}=${raw.toString('utf8')}`);
  }

  onClose(frames: readonly ScanFrame[]): void {
    this.closed.push(frames.length);
  }
}

function scan(text: string | Buffer, chunkSize: number): Recorder {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const recorder = new Recorder();
  const scanner = new JsonStructureScanner(recorder);
  for (let i = 0; i < bytes.length; i += chunkSize) scanner.write(bytes.subarray(i, i + chunkSize));
  scanner.end();
  return recorder;
}

function scanError(text: string, chunkSize = 1 << 20): ReportParseError {
  try {
    scan(text, chunkSize);
  } catch (error) {
    if (error instanceof ReportParseError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

const DOC = `\uFEFF{ "a" : 1, "s": "x\\"}\\\\", "skipped": {"deep": [1, {"q": "]"}]},
  "list": [ {"k": "v\\\\\\"w"}, [1, [2]], "é ü 中", -1.5e3, true, null ],
  "key with \\"quote\\"": {"nested": {"x": []}}, "last": false }  `;

describe('JsonStructureScanner', () => {
  const expected = scan(DOC, 1 << 20);

  it('captures member and element values with their path and byte offset', () => {
    const bytes = Buffer.from(DOC);
    const at = (snippet: string): number => bytes.indexOf(Buffer.from(snippet));
    expect(expected.captured).toEqual([
      `a@${at('1, "s"')}=1`,
      `s@${at('"x')}="x\\"}\\\\"`,
      `list.0@${at('{"k"')}={"k": "v\\\\\\"w"}`,
      `list.1@${at('[1, [2]]')}=[1, [2]]`,
      `list.2@${at('"é')}="é ü 中"`,
      `list.3@${at('-1.5e3')}=-1.5e3`,
      `list.4@${at('true')}=true`,
      `list.5@${at('null')}=null`,
      `key with "quote"@${at('{"nested"')}={"nested": {"x": []}}`,
      `last@${at('false')}=false`,
    ]);
    expect(at('1, "s"')).toBe(11);
    expect(expected.closed).toEqual([2, 1]);
  });

  it.each([1, 2, 3, 5, 7, 13])('gives identical results with %i-byte chunks', (size) => {
    expect(scan(DOC, size).captured).toEqual(expected.captured);
  });

  it('handles backslash runs that straddle chunk boundaries', () => {
    const value = JSON.stringify({ list: ['\\', '\\"', 'a\\\\', '"\\\\"'] });
    for (let size = 1; size <= 6; size += 1) {
      const got = scan(value, size).captured.map(
        (c) => JSON.parse(c.slice(c.indexOf('=') + 1)) as unknown,
      );
      expect(got).toEqual(['\\', '\\"', 'a\\\\', '"\\\\"']);
    }
  });

  it.each([
    ['{"a" 1}', 5, "expected ':', found '1'"],
    ['{"a": 1 "b": 2}', 8, "expected ',' or '}', found '\"'"],
    ['{"list": [1 2]}', 12, "expected ',' or ']', found '2'"],
    ['{"a": 1,}', 8, "expected a property name, found '}'"],
    ['{"a": }', 6, "expected a value, found '}'"],
    ['{"a": {"b": [1}}', 14, "unexpected '}'"],
    ['{"list": [1]]', 12, "unexpected ']'"],
    ['\uFEFF{"a": x}', 9, "expected a value, found 'x'"],
    ['{"a": 1} x', 9, "unexpected 'x' after the end of the document"],
    ['{"a": [1, 2', 11, 'unexpected end of input (truncated report?)'],
    ['{"a": "abc', 10, 'unexpected end of input'],
  ])('reports %j as malformed at byte %i', (text, offset, problem) => {
    for (const size of [1, 4, 1 << 20]) {
      const error = scanError(text, size);
      expect(error.code).toBe('report_malformed');
      expect(error.message).toContain(`malformed JSON at byte ${offset}: ${problem}`);
    }
  });
});
