import { BinaryNode, FieldTermNode, QueryNode } from './query-ast';
import { parseQuery } from './query-parser';
import { QuerySyntaxError } from './query-syntax.errors';

function syntaxError(query: string): QuerySyntaxError {
  try {
    parseQuery(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) return error;
    throw error;
  }
  throw new Error(`expected a syntax error for ${query}`);
}

function field(node: QueryNode | undefined): FieldTermNode {
  if (node?.type !== 'field') throw new Error(`not a field term: ${JSON.stringify(node)}`);
  return node;
}

function binary(node: QueryNode | undefined): BinaryNode {
  if (node?.type !== 'and' && node?.type !== 'or') throw new Error('not a binary node');
  return node;
}

describe('parseQuery', () => {
  it('returns undefined for an empty or blank query', () => {
    expect(parseQuery('')).toBeUndefined();
    expect(parseQuery('   ')).toBeUndefined();
  });

  it('parses field:value with canonical enum spelling (case-insensitive)', () => {
    const term = field(parseQuery('severity:high'));
    expect(term).toMatchObject({ field: 'severity', negated: false, position: 1 });
    expect(term.values).toEqual([
      { raw: 'high', value: 'HIGH', glob: false, quoted: false, position: 10 },
    ]);
    expect(field(parseQuery('kind:notapplicable')).values[0].value).toBe('notApplicable');
    expect(field(parseQuery('Status:In_Progress')).values[0].value).toBe('in_progress');
  });

  it('parses negation, alternatives, booleans and numbers', () => {
    const negated = field(parseQuery('-status:fixed|false_positive'));
    expect(negated.negated).toBe(true);
    expect(negated.values.map((v) => v.value)).toEqual(['fixed', 'false_positive']);
    expect(field(parseQuery('suppressed:TRUE')).values[0].value).toBe(true);
    expect(field(parseQuery('sla_days:7')).values[0].value).toBe(7);
  });

  it('parses comparisons on numeric fields', () => {
    expect(parseQuery('sla_days>=30')).toEqual({
      type: 'comparison',
      field: 'sla_days',
      operator: '>=',
      value: 30,
      negated: false,
      position: 1,
    });
    for (const op of ['>', '<', '<=']) {
      expect(parseQuery(`sla_days${op}1.5`)).toMatchObject({ operator: op, value: 1.5 });
    }
  });

  it('parses quoted values with escapes; a quoted * is literal', () => {
    const term = field(parseQuery('host:"my \\"big\\" host"|other'));
    expect(term.values.map((v) => [v.value, v.quoted, v.position])).toEqual([
      ['my "big" host', true, 6],
      ['other', false, 24],
    ]);
    expect(field(parseQuery('file_path:"a*b"')).values[0].glob).toBe(false);
  });

  it('parses globs on text fields', () => {
    expect(field(parseQuery('file_path:*src/main*')).values[0]).toMatchObject({
      glob: true,
      value: '*src/main*',
    });
    expect(field(parseQuery('tags:*prod*')).values[0].glob).toBe(true);
  });

  it('normalizes cwe and cve values', () => {
    expect(field(parseQuery('cwe:79')).values[0].value).toBe('CWE-79');
    expect(field(parseQuery('cve:cve-2021-44228')).values[0].value).toBe('CVE-2021-44228');
  });

  it('parses bare words and quoted phrases as full-text terms', () => {
    expect(parseQuery('overflow')).toEqual({
      type: 'text',
      text: 'overflow',
      quoted: false,
      negated: false,
      position: 1,
    });
    expect(parseQuery('"buffer overflow"')).toMatchObject({
      text: 'buffer overflow',
      quoted: true,
    });
    expect(parseQuery('-"test code"')).toMatchObject({ text: 'test code', negated: true });
    expect(parseQuery('and')).toMatchObject({ type: 'text', text: 'and' });
  });

  it('joins terms by implicit AND, left to right', () => {
    const root = binary(parseQuery('severity:high status:new'));
    expect(root).toMatchObject({ type: 'and', explicit: false, position: 15 });
    expect(field(root.left).field).toBe('severity');
    expect(field(root.right).field).toBe('status');
  });

  it('evaluates AND/OR strictly left to right: a OR b c = (a OR b) AND c', () => {
    const root = binary(parseQuery('severity:critical OR severity:high status:confirmed'));
    expect(root.type).toBe('and');
    expect(field(root.right).field).toBe('status');
    const left = binary(root.left);
    expect(left).toMatchObject({ type: 'or', explicit: true, position: 19 });
    const other = binary(parseQuery('a AND b OR c'));
    expect(other.type).toBe('or');
    expect(binary(other.left).type).toBe('and');
  });

  it.each([
    ['severity:', 10, 'expected a value after "severity:"'],
    ['status:new AND severity:', 25, 'expected a value after "severity:"'],
    ['host:a|', 8, 'expected a value after "|"'],
    ['host:|a', 6, 'expected a value after "host:"'],
    ['host:""', 6, 'empty value after "host:"'],
    ['host:"abc', 6, 'unterminated quote'],
    ['x "abc', 3, 'unterminated quote'],
    ['""', 1, 'empty quoted phrase'],
    ['colour:red', 1, 'unknown field "colour"; valid fields: severity, status, baseline_state'],
    ['-colour:red', 2, 'unknown field "colour"'],
    ['severity:urgent', 10, '"urgent" is not a valid severity; expected one of CRITICAL, HIGH'],
    ['status:open', 8, '"open" is not a valid status; expected one of new, renewed'],
    ['baseline_state:gone', 16, '"gone" is not a valid baseline_state'],
    ['kind:bad', 6, '"bad" is not a valid kind'],
    ['suppressed:maybe', 12, '"maybe" is not a valid suppressed; expected true or false'],
    ['host>5', 5, 'comparison ">" is only allowed on numeric fields; "host" is text'],
    ['severity<=2', 9, 'comparison "<=" is only allowed on numeric fields'],
    ['sla_days>abc', 10, 'expected a number after "sla_days>", found "abc"'],
    ['sla_days>"5"', 10, 'expected a number after "sla_days>"'],
    ['sla_days>5|7', 11, 'a comparison takes a single value'],
    ['sla_days:seven', 10, 'expected a number for "sla_days", found "seven"'],
    ['file_path:*ab*', 11, 'pattern "*ab*" needs at least 3 characters besides "*"'],
    ['severity:*IGH*', 10, 'patterns with "*" are only allowed on text fields; "severity" is enum'],
    ['overflow AND', 10, '"AND" must be followed by a term'],
    ['a OR', 3, '"OR" must be followed by a term'],
    ['OR severity:high', 1, 'a query cannot start with "OR"'],
    ['AND x', 1, 'a query cannot start with "AND"'],
    ['a AND OR b', 7, 'expected a term after "AND", found "OR"'],
    ['(severity:high)', 1, 'unexpected "(": parentheses are not supported'],
    ['severity:high)', 14, 'unexpected ")" inside a value'],
    ['host:ab"c', 8, 'unexpected """ inside a value'],
    ['host:"a"b', 9, 'unexpected "b" after a quoted value'],
    ['foo"bar', 4, 'unexpected """ in "foo""'],
    [':high', 1, 'unexpected ":": expected a field name before it'],
    ['- severity:high', 1, 'expected a field or a search term after "-"'],
  ])('rejects %j at position %i', (query, position, problem) => {
    const error = syntaxError(query);
    expect(error.code).toBe('query_syntax_error');
    expect(error.position).toBe(position);
    expect(error.message).toContain(`position ${position}: ${problem}`);
  });

  it('rejects more than 20 alternatives, naming the 21st value', () => {
    const values = Array.from({ length: 21 }, (_, i) => `h${i}`);
    const query = `host:${values.join('|')}`;
    const error = syntaxError(query);
    expect(error.position).toBe(query.indexOf('h20') + 1);
    expect(error.problem).toBe('too many values for "host" (at most 20 separated by "|")');
    expect(() => parseQuery(`host:${values.slice(0, 20).join('|')}`)).not.toThrow();
  });

  it('rejects over-long queries', () => {
    expect(syntaxError('x'.repeat(2001)).position).toBe(2001);
  });
});
