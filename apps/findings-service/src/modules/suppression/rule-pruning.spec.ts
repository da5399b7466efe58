import type { StagedFacts } from '../findings/bulk-write/finding-row';
import { likeRegExp, ruleMayMatch } from './rule-pruning';
import { validateRuleQuery } from './suppression-query';

const facts = (scanners: string[], present: StagedFacts['present'] = []): StagedFacts => ({
  scanners,
  present,
});
const may = (rule: string, f: StagedFacts) => ruleMayMatch(validateRuleQuery(rule), f);

describe('suppression rules a batch cannot meet', () => {
  it('a scanner term is checked against the batch scanners, case-insensitive, substring or glob', () => {
    expect(may('scanner:semgrep', facts(['Semgrep OSS']))).toBe(true);
    expect(may('scanner:semgrep', facts(['CodeQL']))).toBe(false);
    expect(may('scanner:codeql|semgrep', facts(['CodeQL']))).toBe(true);
    expect(may('scanner:sem*', facts(['xsemgrep']))).toBe(false);
    expect(may('scanner:sem*', facts(['Semgrep']))).toBe(true);
    expect(may('scanner:*grep', facts(['CodeQL', 'semgrep']))).toBe(true);
    // LIKE metacharacters in a value are literal.
    expect(may('scanner:"a_b"', facts(['axb']))).toBe(false);
    expect(may('scanner:"a_b"', facts(['my a_b tool']))).toBe(true);
    expect(may('scanner:"50%"', facts(['500']))).toBe(false);
  });

  it('never rules out what it cannot decide: non-ASCII names, negations, fields it has no facts for', () => {
    expect(may('scanner:сканер', facts(['CodeQL']))).toBe(true);
    expect(may('scanner:codeql', facts(['Сканер']))).toBe(true);
    expect(may('-scanner:codeql rule:x', facts(['CodeQL']))).toBe(true);
    expect(may('rule:x', facts([]))).toBe(true);
    expect(may('severity:high', facts([]))).toBe(true);
  });

  it('a value no row has rules a positive term out; AND needs every side, OR one', () => {
    const sarif = facts(['CodeQL'], ['file_path', 'cwe']);
    expect(may('host:*.corp', sarif)).toBe(false);
    expect(may('component:lodash', sarif)).toBe(false);
    expect(may('cve:CVE-2024-1', sarif)).toBe(false);
    expect(may('tags:vendor', sarif)).toBe(false);
    expect(may('cwe:79', sarif)).toBe(true);
    expect(may('file_path:src/*', sarif)).toBe(true);
    expect(may('-host:*.corp rule:x', sarif)).toBe(true);
    expect(may('rule:x host:a', sarif)).toBe(false);
    expect(may('host:a OR rule:x', sarif)).toBe(true);
    expect(may('host:a OR tags:x', sarif)).toBe(false);
    // Strictly left to right: (host:a OR rule:x) AND scanner:semgrep.
    expect(may('host:a OR rule:x scanner:semgrep', sarif)).toBe(false);
    expect(may('host:a OR rule:x scanner:codeql', sarif)).toBe(true);
  });

  it('LIKE patterns become anchored expressions with escapes kept literal', () => {
    expect(likeRegExp('%a\\%b%').test('xa%by')).toBe(true);
    expect(likeRegExp('%a\\%b%').test('xaqby')).toBe(false);
    expect(likeRegExp('a_c').test('abc')).toBe(true);
    expect(likeRegExp('a_c').test('abbc')).toBe(false);
    expect(likeRegExp('a.c').test('abc')).toBe(false);
    expect(likeRegExp('src/%').test('src/x/y')).toBe(true);
    expect(likeRegExp('src/%').test('lib/src/x')).toBe(false);
  });
});
