import { InputValidationError } from '@platform/errors';
import { CommaListChecker, commaList, isUuidValue } from './comma-list-filters';

const isLetter = (v: string): v is 'a' | 'b' => v === 'a' || v === 'b';

describe('commaList', () => {
  it('splits, trims, drops empties and repeats; nothing left is undefined', () => {
    expect(commaList(' a, b,,a ,')).toEqual(['a', 'b']);
    expect(commaList(' , ')).toBeUndefined();
    expect(commaList(undefined)).toBeUndefined();
  });
});

describe('CommaListChecker', () => {
  it('returns the values of valid lists and throws nothing', () => {
    const lists = new CommaListChecker();
    expect(lists.check('letter', 'a,b', isLetter, 'expected a|b')).toEqual(['a', 'b']);
    expect(lists.check('other', undefined, isLetter, 'expected a|b')).toBeUndefined();
    expect(() => lists.done()).not.toThrow();
  });

  it('collects every bad field into one validation error naming fields and values', () => {
    const lists = new CommaListChecker();
    lists.check('letter', 'a,x,y', isLetter, 'expected a|b');
    lists.check('project_id', 'not-a-uuid', isUuidValue, 'not a UUID');
    lists.check('many', Array.from({ length: 101 }, (_, i) => `v${i}`).join(','), isUuidValue, 'x');
    let thrown: unknown;
    try {
      lists.done();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InputValidationError);
    const fields = (thrown as InputValidationError).fields;
    expect(fields).toEqual(
      expect.arrayContaining([
        { field: 'letter', problems: ['x, y: expected a|b'] },
        { field: 'project_id', problems: ['not-a-uuid: not a UUID'] },
        { field: 'many', problems: ['at most 100 values'] },
      ]),
    );
  });
});
