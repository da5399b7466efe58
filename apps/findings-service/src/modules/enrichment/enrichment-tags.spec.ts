import { enrichmentTagsOf } from './enrichment-tags';

describe('enrichment tags of an enricher answer', () => {
  it('keeps valid tags: keys lower-cased, values on one line and capped, last value of a key wins', () => {
    expect(
      enrichmentTagsOf([
        { key: 'Owner', value: ' team-web ' },
        { key: 'env', value: 'prod\nline2' },
        { key: 'owner', value: 'team-db' },
        { key: 'long', value: 'x'.repeat(300) },
      ]),
    ).toEqual([
      { key: 'owner', value: 'team-db' },
      { key: 'env', value: 'prod line2' },
      { key: 'long', value: 'x'.repeat(256) },
    ]);
    expect(enrichmentTagsOf([])).toEqual([]);
  });

  it.each([
    ['not a list', { key: 'a', value: 'b' }],
    ['a key outside the alphabet', [{ key: 'bad key', value: 'b' }]],
    ['an empty key', [{ key: '', value: 'b' }]],
    ['a key over 64 characters', [{ key: 'k'.repeat(65), value: 'b' }]],
    ['a non-string value', [{ key: 'a', value: 1 }]],
    ['more than 50 tags', Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: 'v' }))],
  ])('refuses %s', (_what, answer) => {
    expect(enrichmentTagsOf(answer)).toBeUndefined();
  });
});
