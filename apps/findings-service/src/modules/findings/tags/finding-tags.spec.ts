import { InputValidationError } from '@platform/errors';
import { applyTagChange, normalizeTags, tagAction } from './finding-tags';

describe('finding tags', () => {
  it('normalizes: trim, lower case, unique, sorted; letters of any script', () => {
    expect(normalizeTags([' PCI ', 'team-a', 'pci', 'Команда-1', 'k8s:ns/app'], 'tags')).toEqual([
      'k8s:ns/app',
      'pci',
      'team-a',
      'команда-1',
    ]);
  });

  it.each([[''], ['two words'], ['x'.repeat(65)], ['-leading'], ['semi;colon']])(
    'refuses %j',
    (tag) => {
      expect(() => normalizeTags([tag], 'add')).toThrow(InputValidationError);
    },
  );

  it('applies a change and names it', () => {
    expect(applyTagChange(['a', 'b'], ['c'], ['a'])).toEqual(['b', 'c']);
    expect(tagAction(['a'], ['a', 'b'])).toBe('tag_added');
    expect(tagAction(['a', 'b'], ['a'])).toBe('tag_removed');
    expect(tagAction(['a'], ['b'])).toBe('tags_changed');
    expect(tagAction(['a'], ['a'])).toBeUndefined();
  });
});
