import { DomainError } from '@platform/errors';
import {
  MAX_RULE_QUERY_LENGTH,
  stagedRuleCase,
  storedPredicate,
  validateRuleQuery,
} from './suppression-query';

/** The refusal's `details` (reason, position, problem) or undefined when accepted. */
function refusal(text: string): Record<string, unknown> | undefined {
  try {
    validateRuleQuery(text);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('suppression_rule_invalid');
    return (error as DomainError).details;
  }
}

describe('suppression rule match language', () => {
  it('compiles the rule fields over a stored finding, values as parameters after the offset', () => {
    expect(storedPredicate('scanner:semgrep rule:js/xss file_path:tests/*', 1)).toEqual({
      sql: "((f.scanner ILIKE $2 ESCAPE '\\' AND f.rule_id ILIKE $3 ESCAPE '\\') AND f.file_path ILIKE $4 ESCAPE '\\')",
      params: ['%semgrep%', '%js/xss%', 'tests/%'],
    });
  });

  it('matches tags of every origin on a stored finding, report tags on a staged row', () => {
    expect(storedPredicate('tags:vendored').sql).toBe(
      '(f.tags || f.report_tags || f.enrichment_tags) && ARRAY[$1]::text[]',
    );
    const staged = stagedRuleCase([{ id: 'r1', query: 'tags:vendored' }], 10);
    expect(staged?.sql).toBe('CASE WHEN s.report_tags && ARRAY[$11]::text[] THEN $12::uuid END');
  });

  it('folds the enabled rules into one CASE, first rule first, parameters numbered on; staged text is compared lower-cased with LIKE', () => {
    const staged = stagedRuleCase(
      [
        { id: 'a', query: 'severity:info' },
        { id: 'b', query: 'cwe:79 OR cve:cve-2021-1' },
      ],
      10,
    );
    expect(staged).toEqual({
      sql:
        'CASE WHEN s.severity = $11 THEN $12::uuid ' +
        "WHEN (s.cwe && ARRAY[$13]::text[] OR l.lc_cve LIKE $14 ESCAPE '\\') THEN $15::uuid END",
      params: ['INFO', 'a', 'CWE-79', '%cve-2021-1%', 'b'],
    });
    expect(stagedRuleCase([], 10)).toBeUndefined();
  });

  it('matches staged text case-insensitively, as ILIKE on a stored finding does', () => {
    const staged = stagedRuleCase([{ id: 'r', query: 'file_path:Vendor/*.JS rule:"XSS_1"' }], 10);
    expect(staged?.sql).toBe(
      "CASE WHEN (l.lc_file_path LIKE $11 ESCAPE '\\' AND l.lc_rule_id LIKE $12 ESCAPE '\\') THEN $13::uuid END",
    );
    expect(staged?.params).toEqual(['vendor/%.js', '%xss\\_1%', 'r']);
  });

  it('compares a pattern with non-ASCII text by ILIKE on the staged column, as a run does (lower() is not JavaScript case mapping)', () => {
    const staged = stagedRuleCase([{ id: 'r', query: 'file_path:*/Ä/* host:STRASSE|Straße' }], 10);
    expect(staged?.sql).toBe(
      "CASE WHEN (s.file_path ILIKE $11 ESCAPE '\\' AND (l.lc_host LIKE $12 ESCAPE '\\' OR s.host ILIKE $13 ESCAPE '\\')) THEN $14::uuid END",
    );
    expect(staged?.params).toEqual(['%/Ä/%', '%strasse%', '%Straße%', 'r']);
  });

  it('accepts negation and OR when one term narrows', () => {
    expect(refusal('scanner:zap -host:prod*')).toBeUndefined();
    expect(refusal('component:lodash OR component:underscore')).toBeUndefined();
    expect(refusal('severity:low|info')).toBeUndefined();
  });

  it('refuses a syntax error with its position', () => {
    expect(refusal('scanner:')).toMatchObject({ reason: 'syntax', position: 9 });
  });

  it('refuses a field outside the rule fields, naming the allowed ones', () => {
    const details = refusal('status:new');
    expect(details).toMatchObject({ reason: 'syntax', position: 1 });
    expect(String(details?.['problem'])).toContain('valid fields: scanner, rule, file_path');
  });

  it('refuses bare words (full-text)', () => {
    expect(refusal('scanner:zap password')).toMatchObject({ reason: 'full_text', position: 13 });
  });

  it('refuses a rule that matches everything', () => {
    expect(refusal('')).toMatchObject({ reason: 'matches_everything' });
    expect(refusal('-scanner:zap')).toMatchObject({ reason: 'matches_everything' });
    expect(refusal('severity:critical|high|medium|low|info')).toMatchObject({
      reason: 'matches_everything',
    });
  });

  it('refuses hostile globs: too short, too many stars, too long', () => {
    expect(refusal('file_path:**')).toMatchObject({ reason: 'syntax' });
    expect(refusal('file_path:*a*b*c*d*e*f*g*h*i*')).toMatchObject({
      reason: 'too_many_wildcards',
    });
    expect(refusal(`file_path:${'*'.repeat(10_000)}`)).toMatchObject({
      reason: 'too_long',
      position: MAX_RULE_QUERY_LENGTH + 1,
    });
    // A literal path pattern is only a pattern: accepted, matches what it says.
    expect(storedPredicate('file_path:**/../../').params).toEqual(['%%/../../']);
  });
});
