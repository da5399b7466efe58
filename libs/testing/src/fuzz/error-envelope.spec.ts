import { jsonErrorEnvelope } from './error-envelope';

describe('jsonErrorEnvelope', () => {
  const check = jsonErrorEnvelope(['error', 'code']);
  const problem = (text: string) => check(400, Buffer.from(text));

  it('accepts an object with every named field a string, extra fields included', () => {
    expect(problem('{"error":"bad","code":"invalid","details":[]}')).toBeUndefined();
  });

  it('names what is wrong: not JSON, not an object, the first field that is not a string', () => {
    expect(problem('<html>')).toBe('the error answer is not JSON');
    expect(problem('["error"]')).toBe('the error answer is not a JSON object');
    expect(problem('null')).toBe('the error answer is not a JSON object');
    expect(problem('{"code":"x"}')).toBe('the error answer has no string "error"');
    expect(problem('{"error":"x","code":7}')).toBe('the error answer has no string "code"');
  });
});
