import { compileQuery } from './query-compiler';
import { DEFAULT_QUERY_FIELD_CATALOG, QueryFieldCatalog } from './query-field-catalog';
import { parseQuery } from './query-parser';
import { QuerySyntaxError } from './query-syntax.errors';

const TEXT =
  "(f.title ILIKE $1 ESCAPE '\\' OR f.description ILIKE $1 ESCAPE '\\' OR f.rule_id ILIKE $1 ESCAPE '\\')";

describe('compileQuery', () => {
  it('compiles an empty query to TRUE', () => {
    expect(compileQuery('')).toEqual({ sql: 'TRUE', params: [] });
    expect(compileQuery(undefined)).toEqual({ sql: 'TRUE', params: [] });
  });

  it('compiles enum equality and alternatives', () => {
    expect(compileQuery('severity:high')).toEqual({ sql: 'f.severity = $1', params: ['HIGH'] });
    expect(compileQuery('status:new|confirmed')).toEqual({
      sql: 'f.status IN ($1, $2)',
      params: ['new', 'confirmed'],
    });
  });

  it('compiles text fields to escaped substring ILIKE', () => {
    expect(compileQuery('host:web_1%')).toEqual({
      sql: "f.host ILIKE $1 ESCAPE '\\'",
      params: ['%web\\_1\\%%'],
    });
    expect(compileQuery('host:a|b')).toEqual({
      sql: "(f.host ILIKE $1 ESCAPE '\\' OR f.host ILIKE $2 ESCAPE '\\')",
      params: ['%a%', '%b%'],
    });
    expect(compileQuery('project:"core api"').params).toEqual(['%core api%']);
  });

  it('compiles globs: * becomes %, other metacharacters escaped, anchored as written', () => {
    expect(compileQuery('file_path:src/*_test.c')).toEqual({
      sql: "f.file_path ILIKE $1 ESCAPE '\\'",
      params: ['src/%\\_test.c'],
    });
    expect(compileQuery('file_path:*main*').params).toEqual(['%main%']);
  });

  it('compiles negation as IS NOT TRUE (rows with NULL stay included)', () => {
    expect(compileQuery('-host:db')).toEqual({
      sql: "(f.host ILIKE $1 ESCAPE '\\') IS NOT TRUE",
      params: ['%db%'],
    });
    expect(compileQuery('-severity:info').sql).toBe('(f.severity = $1) IS NOT TRUE');
  });

  it('compiles numbers, comparisons and booleans', () => {
    expect(compileQuery('sla_days>=30')).toEqual({
      sql: 'f.sla_days >= $1::numeric',
      params: [30],
    });
    expect(compileQuery('-sla_days<7').sql).toBe('(f.sla_days < $1::numeric) IS NOT TRUE');
    expect(compileQuery('sla_days:7|14')).toEqual({
      sql: 'f.sla_days IN ($1::numeric, $2::numeric)',
      params: [7, 14],
    });
    expect(compileQuery('suppressed:false')).toEqual({ sql: 'f.suppressed = $1', params: [false] });
  });

  it('compiles array fields: exact elements via &&, globs via unnest', () => {
    expect(compileQuery('tags:pci|prod')).toEqual({
      sql: 'f.tags && ARRAY[$1, $2]::text[]',
      params: ['pci', 'prod'],
    });
    expect(compileQuery('cwe:79')).toEqual({
      sql: 'f.cwe && ARRAY[$1]::text[]',
      params: ['CWE-79'],
    });
    expect(compileQuery('tags:team-*')).toEqual({
      sql: "EXISTS (SELECT 1 FROM unnest(f.tags) AS q_elem(v) WHERE q_elem.v ILIKE $1 ESCAPE '\\')",
      params: ['team-%'],
    });
  });

  it('compiles bare terms through the full-text builder', () => {
    expect(compileQuery('overflow')).toEqual({ sql: TEXT, params: ['%overflow%'] });
    const raw: QueryFieldCatalog = {
      ...DEFAULT_QUERY_FIELD_CATALOG,
      fullText: { value: 'raw', sql: (p) => `f.search @@ plainto_tsquery('simple', ${p})` },
    };
    expect(compileQuery('-"sql injection"', { catalog: raw })).toEqual({
      sql: "(f.search @@ plainto_tsquery('simple', $1)) IS NOT TRUE",
      params: ['sql injection'],
    });
  });

  it('nests AND/OR strictly left to right', () => {
    expect(compileQuery('severity:critical OR severity:high status:confirmed')).toEqual({
      sql: '((f.severity = $1 OR f.severity = $2) AND f.status = $3)',
      params: ['CRITICAL', 'HIGH', 'confirmed'],
    });
    expect(compileQuery('a AND b OR c').sql).toBe(
      `((${TEXT} AND ${TEXT.replace(/\$1/g, '$2')}) OR ${TEXT.replace(/\$1/g, '$3')})`,
    );
  });

  it('numbers placeholders from the given offset', () => {
    expect(compileQuery('severity:low host:x', { paramOffset: 3 })).toEqual({
      sql: "(f.severity = $4 AND f.host ILIKE $5 ESCAPE '\\')",
      params: ['LOW', '%x%'],
    });
  });

  it('uses the catalog column expressions for project and product', () => {
    expect(compileQuery('project:core product:api').sql).toBe(
      "(p.name ILIKE $1 ESCAPE '\\' AND pr.name ILIKE $2 ESCAPE '\\')",
    );
  });

  it('accepts a parsed AST', () => {
    expect(compileQuery(parseQuery('kind:fail'))).toEqual({ sql: 'f.kind = $1', params: ['fail'] });
  });

  it('throws QuerySyntaxError instead of compiling a bad query', () => {
    expect(() => compileQuery('severity:')).toThrow(QuerySyntaxError);
  });

  describe('values never reach the SQL text', () => {
    const attacks = [
      `host:"x' OR 1=1 --"`,
      `"'; DROP TABLE findings; --"`,
      `file_path:"*'); DELETE FROM f; --*"`,
      `file_path:*';DELETE--*`,
      `tags:"a'::text[]) OR true --"`,
      `cve:"CVE-1' OR '1'='1"`,
      `"robert');DROP"`,
      `project:$1 product:"$$ OR $$"`,
    ];
    it.each(attacks)('%s', (query) => {
      const { sql, params } = compileQuery(query);
      expect(sql).not.toMatch(/DROP|DELETE|1=1|OR true|robert|\$\$/i);
      expect(sql).not.toContain("x'");
      expect(params.length).toBeGreaterThan(0);
      // Only catalog SQL, placeholders and fixed keywords remain once placeholders are removed.
      const skeleton = sql.replace(/\$\d+/g, '?');
      expect(skeleton).toMatch(/^[\w\s.()?,=:'\\[\]&@%<>|-]*$/);
      expect(skeleton.replace(/ESCAPE '\\'/g, '')).not.toContain("'");
    });

    it('keeps an injection attempt as one literal parameter', () => {
      expect(compileQuery(`host:"x' OR 1=1 --"`)).toEqual({
        sql: "f.host ILIKE $1 ESCAPE '\\'",
        params: ["%x' OR 1=1 --%"],
      });
    });
  });
});
