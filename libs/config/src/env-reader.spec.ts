import { ConfigError, EnvReader } from './env-reader';

describe('EnvReader', () => {
  it('reads typed values with defaults', () => {
    const env = new EnvReader({ PORT: '3001', FLAG: 'true', LIST: 'a, b,,c', LEVEL: 'warn' });
    expect(env.int('PORT', 3000)).toBe(3001);
    expect(env.int('MISSING', 7)).toBe(7);
    expect(env.bool('FLAG', false)).toBe(true);
    expect(env.list('LIST')).toEqual(['a', 'b', 'c']);
    expect(env.oneOf('LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info')).toBe('warn');
    expect(() => env.done()).not.toThrow();
  });

  it('collects every problem and reports them together', () => {
    const env = new EnvReader({ PORT: 'x', FLAG: 'maybe', LEVEL: 'loud', N: '0' });
    env.int('PORT', 1);
    env.bool('FLAG', false);
    env.oneOf('LEVEL', ['info'] as const, 'info');
    env.int('N', 5, { min: 1 });
    env.requiredString('SECRET');
    try {
      env.done();
      throw new Error('expected ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toHaveLength(5);
    }
  });

  it('treats blank values as unset', () => {
    expect(new EnvReader({ A: '  ' }).string('A', 'dflt')).toBe('dflt');
  });
});
