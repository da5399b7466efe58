import { REDACTED, SecretScrubber } from './secret-scrubber';

describe('secret scrubber (both tiers: WebAssembly host calls and native channels)', () => {
  it('writes the platform marker [redacted], as the log redaction does', () => {
    expect(REDACTED).toBe('[redacted]');
  });

  it('replaces the value as text, never as a pattern', () => {
    const scrubber = new SecretScrubber();
    scrubber.add('a.b$&(c)*');
    expect(scrubber.scrub('x a.b$&(c)* y aXb$&(c)')).toBe(`x ${REDACTED} y aXb$&(c)`);
  });

  it('replaces every occurrence exactly, the longest value first', () => {
    const scrubber = new SecretScrubber();
    scrubber.add('abc');
    scrubber.add('abcdef');
    expect(scrubber.scrub('x abcdef y abc z abcabc')).toBe(
      `x ${REDACTED} y ${REDACTED} z ${REDACTED}${REDACTED}`,
    );
    expect(scrubber.scrub('ABC ab c')).toBe('ABC ab c');
  });

  it('scrubs strings inside values, keys included; ignores empty values', () => {
    const scrubber = new SecretScrubber();
    scrubber.add('');
    expect(scrubber.size).toBe(0);
    scrubber.add('s3cret');
    expect(scrubber.scrubValue({ 's3cret-key': ['a s3cret', 1, null, { b: 's3cret' }] })).toEqual({
      [`${REDACTED}-key`]: [`a ${REDACTED}`, 1, null, { b: REDACTED }],
    });
  });

  it('keeps at most maxValues values, forgetting the oldest', () => {
    const scrubber = new SecretScrubber(2);
    scrubber.add('one1');
    scrubber.add('two2');
    scrubber.add('three3');
    expect(scrubber.size).toBe(2);
    expect(scrubber.scrub('one1 two2 three3')).toBe(`one1 ${REDACTED} ${REDACTED}`);
  });
});
