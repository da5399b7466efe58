import { containsPattern } from '../query';
import { patternPieces } from './search-probe';

const pieces = (term: string) => patternPieces(containsPattern(term)).map((p) => p.text);

describe('patternPieces', () => {
  it('takes runs of three or more letters or digits with a plain separator on each side', () => {
    expect(pieces('finding 77777:')).toEqual(['finding ', ' 77777:']);
    expect(pieces('rule-217')).toEqual(['rule-', '-217']);
    expect(pieces('module-17/file-3')).toEqual(['module-', '/file-']);
    expect(pieces('zqxj')).toEqual(['zqxj']);
    expect(pieces('ab-cd')).toEqual([]);
  });

  it('never cuts an escape: LIKE metacharacters and backslashes stay outside the pieces', () => {
    expect(pieces('des_cbc')).toEqual(['des', 'cbc']);
    expect(pieces('100%')).toEqual(['100']);
    expect(pieces('C:\\temp')).toEqual(['temp']);
  });

  it('counts characters as PostgreSQL substr does (code points), at most four pieces', () => {
    const pattern = containsPattern('crème brûlée 😀abc');
    for (const p of patternPieces(pattern)) {
      expect([...pattern].slice(p.start - 1, p.start - 1 + p.length).join('')).toBe(p.text);
    }
    expect(pieces('aaa bbb ccc ddd eee')).toHaveLength(4);
  });
});
