import { InputValidationError } from '@platform/errors';
import { isStorableText, unstorableTextFields } from './storable-text';
import { StorableTextPipe } from './storable-text.pipe';

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, accepts paired ones and other controls', () => {
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\ud800b')).toBe(false);
    expect(isStorableText('\udc00')).toBe(false);
    expect(isStorableText('x\ud83d')).toBe(false);
    expect(isStorableText('emoji \ud83d\ude00 tab\t bell\u0007 del\u007f')).toBe(true);
  });

  it('names every bad field at any depth, keys and array items included', () => {
    const value = {
      ok: 'fine',
      a: { b: [{ c: 'x' }, { c: 'y\u0000' }] },
      ['k\u0000']: 1,
      deep: JSON.parse('{"d":'.repeat(60) + '"\\ud800"' + '}'.repeat(60)) as unknown,
    };
    expect(unstorableTextFields(value, '').map((f) => f.field)).toEqual([
      'a.b.1.c',
      `deep${'.d'.repeat(60)}`,
      'k\\u0000',
    ]);
    expect(unstorableTextFields('\u0000', 'serial')).toEqual([
      { field: 'serial', problems: ['must not contain U+0000 or unpaired UTF-16 surrogates'] },
    ]);
  });

  it('walks a very deep value without recursion', () => {
    let value: unknown = 'bad\u0000';
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(unstorableTextFields(value, '')).toHaveLength(1);
  });

  describe('StorableTextPipe', () => {
    const pipe = new StorableTextPipe();
    const refusal = (value: unknown, type: 'body' | 'query' | 'param', data?: string) => {
      try {
        pipe.transform(value, { type, data });
      } catch (error) {
        if (error instanceof InputValidationError) return error.fields.map((f) => f.field);
        throw error;
      }
      return [];
    };

    it('checks body, query and path parameters and names the field', () => {
      expect(refusal({ email: 'a\u0000@b.cd' }, 'body')).toEqual(['email']);
      expect(refusal({ serial: 'x\u0000' }, 'query')).toEqual(['serial']);
      expect(refusal('x\u0000', 'param', 'serial')).toEqual(['serial']);
      expect(refusal('\u0000', 'body')).toEqual(['body']);
      expect(refusal({ email: 'fine' }, 'body')).toEqual([]);
    });

    it('leaves custom parameters (the caller, the request) alone', () => {
      const actor = { name: 'x\u0000' };
      expect(pipe.transform(actor, { type: 'custom' })).toBe(actor);
    });
  });
});
