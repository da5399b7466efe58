import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS, parseJsonBody } from './json-body';
import { RequestBodyError } from './request-body-error';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

function refusal(raw: Buffer): RequestBodyError {
  try {
    parseJsonBody(raw);
  } catch (error) {
    if (error instanceof RequestBodyError) return error;
    throw error;
  }
  throw new Error('body was accepted');
}

describe('parseJsonBody', () => {
  it('accepts nesting up to the bound and refuses one level more', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    expect(parseJsonBody(bytes(nested(64)))).toBeInstanceOf(Array);
    const objects = '{"a":'.repeat(63) + '{}' + '}'.repeat(63);
    expect(parseJsonBody(bytes(objects))).toHaveProperty('a');
    expect(refusal(bytes(nested(65)))).toMatchObject({
      code: 'body_too_deep',
      details: { max_depth: 64 },
    });
  });

  it('refuses 10 000 levels (and a million) without a stack overflow', () => {
    expect(refusal(bytes(`{"email":${nested(10_000)}}`)).code).toBe('body_too_deep');
    expect(refusal(bytes('['.repeat(1_000_000))).code).toBe('body_too_deep');
  });

  it('accepts containers up to the member bound and refuses one member more', () => {
    expect(MAX_JSON_MEMBERS).toBe(10_000);
    const ids = (n: number): string => JSON.stringify({ ids: Array.from({ length: n }, () => 1) });
    expect((parseJsonBody(bytes(ids(10_000))) as { ids: number[] }).ids).toHaveLength(10_000);
    expect(refusal(bytes(ids(10_001)))).toMatchObject({
      code: 'body_too_wide',
      details: { max_members: 10_000 },
    });
    const keys = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, i]));
    expect(refusal(bytes(JSON.stringify(keys))).code).toBe('body_too_wide');
  });

  it('counts members per container, not per body, and not commas inside strings', () => {
    const many = Array.from({ length: 30 }, () => Array.from({ length: 5_000 }, () => 0));
    expect(parseJsonBody(bytes(JSON.stringify(many)))).toHaveLength(30);
    const text = JSON.stringify({ s: ','.repeat(50_000), t: [1, 2] });
    expect(parseJsonBody(bytes(text))).toEqual(JSON.parse(text));
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ s: '['.repeat(100) + '\\"[[[' + '{'.repeat(100) });
    expect(parseJsonBody(bytes(text))).toEqual(JSON.parse(text));
  });

  it('reads an empty or blank body as {}', () => {
    expect(parseJsonBody(Buffer.alloc(0))).toEqual({});
    expect(parseJsonBody(bytes(' \r\n\t'))).toEqual({});
  });

  it('refuses malformed JSON and invalid UTF-8 as bad_request', () => {
    expect(refusal(bytes('{oops'))).toMatchObject({
      code: 'bad_request',
      details: { problem: 'is not valid JSON' },
    });
    expect(refusal(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])).details).toEqual({
      problem: 'is not valid UTF-8',
    });
    // CESU-8 encoded surrogate: not UTF-8.
    expect(refusal(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])).code).toBe('bad_request');
  });

  it('refuses prototype keys however they are spelled, at any depth', () => {
    expect(refusal(bytes('{"__proto__":{"admin":true}}')).code).toBe('bad_request');
    expect(refusal(bytes('{"a":[{"\\u005f_proto__":1}]}')).code).toBe('bad_request');
    expect(refusal(bytes('{"constructor":{"prototype":{"x":1}}}')).code).toBe('bad_request');
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
    expect(parseJsonBody(bytes('{"constructor":"a text"}'))).toEqual({ constructor: 'a text' });
  });

  it('lets the last duplicate key win and strips a byte order mark', () => {
    expect(parseJsonBody(bytes('{"a":1,"a":2}'))).toEqual({ a: 2 });
    expect(parseJsonBody(bytes('\ufeff{"a":1}'))).toEqual({ a: 1 });
  });
});
