import { enrichmentTagsOf, readEnrichmentTags } from './enrichment-tags';

describe('enrichment tags of an enricher answer', () => {
  it('keeps valid tags: keys lower-cased, values on one line, last value of a key wins', () => {
    expect(
      enrichmentTagsOf([
        { key: 'Owner', value: ' team-web ' },
        { key: 'env', value: 'prod\nline2' },
        { key: 'owner', value: 'team-db' },
        { key: 'long', value: 'x'.repeat(256) },
        { key: 'emoji', value: 'ok \u{1F600}' },
      ]),
    ).toEqual([
      { key: 'owner', value: 'team-db' },
      { key: 'env', value: 'prod line2' },
      { key: 'long', value: 'x'.repeat(256) },
      { key: 'emoji', value: 'ok \u{1F600}' },
    ]);
    expect(enrichmentTagsOf([])).toEqual([]);
  });

  it.each([
    ['not a list', { key: 'a', value: 'b' }, 'the answer is object, not a list of tags'],
    ['a number', 42, 'the answer is number, not a list of tags'],
    ['null', null, 'the answer is null, not a list of tags'],
    ['a key outside the alphabet', [{ key: 'bad key', value: 'b' }], 'the key must be'],
    ['an empty key', [{ key: '', value: 'b' }], 'the key must be'],
    ['a key over 64 characters', [{ key: 'k'.repeat(65), value: 'b' }], 'the key must be'],
    ['a non-string value', [{ key: 'a', value: 1 }], 'must be strings'],
    ['a list item', [['a', 'b']], 'tag 0 is a list'],
    ['U+0000 in a value', [{ key: 'a', value: 'x\u0000y' }], 'U+0000'],
    ['U+0000 in a key', [{ key: 'a\u0000', value: 'v' }], 'U+0000'],
    ['a lone high surrogate', [{ key: 'a', value: 'x\uD800' }], 'unpaired surrogate'],
    ['a lone low surrogate', [{ key: 'a', value: '\uDC00x' }], 'unpaired surrogate'],
    ['a value over 256 characters', [{ key: 'a', value: 'x'.repeat(257) }], 'at most 256'],
    ['a huge value', [{ key: 'a', value: 'x'.repeat(1_000_000) }], 'at most 256'],
    [
      'more than 50 tags',
      Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: 'v' })),
      '51 tags, at most 50',
    ],
    [
      '45 000 tags',
      Array.from({ length: 45_000 }, (_, i) => ({ key: `k${i}`, value: 'v' })),
      '45000 tags',
    ],
  ])('refuses %s, saying why', (_what, answer, problem) => {
    expect(enrichmentTagsOf(answer)).toBeUndefined();
    const read = readEnrichmentTags(answer);
    expect(read).toEqual({ problem: expect.any(String) });
    expect((read as { problem: string }).problem).toContain(problem);
  });
});
