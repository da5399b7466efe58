import request from 'supertest';
import { bearer } from '../support/catalog';
import { idsFor, Product, seedFindings, startWithProduct } from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;
let ids: string[];

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
  ids = await seedFindings(t, product, [
    {
      severity: 'CRITICAL',
      status: 'confirmed',
      host: 'web-prod-01',
      scanner: 'semgrep',
      file_path: 'src/api/user.ts',
      sla_days: 7,
      cwe: ['CWE-79'],
      tags: ['pci'],
      baseline_state: 'new',
      component: 'lodash',
      component_version: '4.17.20',
      service: 'http',
      ip: '10.0.0.5',
      cve: 'CVE-2021-23337',
      title: 'SQL injection in login',
    },
    {
      severity: 'HIGH',
      status: 'confirmed',
      host: 'db-prod-02',
      scanner: 'trivy',
      file_path: 'lib/db.ts',
      sla_days: 14,
      cwe: ['CWE-89'],
      report_tags: ['team-payments'],
      baseline_state: 'unchanged',
      suppressed: true,
      title: 'Outdated openssl',
    },
    {
      severity: 'HIGH',
      status: 'new',
      host: 'staging host',
      scanner: 'trivy',
      file_path: 'src/util.ts',
      sla_days: 14,
      title: 'Weak cipher',
    },
    {
      severity: 'LOW',
      status: 'fixed',
      scanner: 'zap',
      sla_days: 90,
      kind: 'review',
      title: 'Missing header',
      description: 'X-Frame-Options overflow',
    },
    {
      severity: 'INFO',
      status: 'new',
      scanner: 'semgrep',
      sla_days: null,
      file_path: 'src/api/admin.ts',
      title: 'buffer overflow in parser',
    },
  ]);
});
afterAll(() => t.close());

const TOO_MANY_ALTERNATIVES = `host:${Array.from({ length: 21 }, (_, i) => `h${i + 1}`).join('|')}`;
const TOO_MANY_TERMS = Array.from({ length: 51 }, (_, i) => `t${i}`).join(' ');
const q = (query: string) => idsFor(t, bearer(admin), product, { q: query });
const pick = (...k: number[]) => k.map((i) => ids[i]).sort();

describe('Query findings - /api/v1/findings?q= (GET)', () => {
  it.each([
    ['equality on enums, any case', 'severity:high', [1, 2]],
    ['equality on status', 'status:CONFIRMED', [0, 1]],
    ['substring on text', 'host:prod', [0, 1]],
    ['negation (NULL counts as not matching)', '-host:prod', [2, 3, 4]],
    ['negated enum', '-severity:high', [0, 3, 4]],
    ['alternatives', 'severity:critical|low', [0, 3]],
    ['text alternatives', 'scanner:zap|semgrep', [0, 3, 4]],
    ['comparison >=', 'sla_days>=14', [1, 2, 3]],
    ['comparison >', 'sla_days>14', [3]],
    ['comparison <', 'sla_days<14', [0]],
    ['comparison <=', 'sla_days<=7', [0]],
    ['glob, prefix', 'file_path:src/*', [0, 2, 4]],
    ['glob, both sides', 'host:*prod*', [0, 1]],
    ['glob inside', 'file_path:src/*min*', [4]],
    ['quoted value with a space', 'host:"staging host"', [2]],
    ['bare full-text term (title or description)', 'overflow', [3, 4]],
    ['quoted phrase', '"SQL injection"', [0]],
    ['negated bare term', '-overflow', [0, 1, 2]],
    ['implicit AND', 'severity:high status:new', [2]],
    ['explicit AND', 'scanner:trivy AND suppressed:true', [1]],
    [
      'left to right: (critical OR high) AND confirmed',
      'severity:critical OR severity:high status:confirmed',
      [0, 1],
    ],
    [
      'left to right: (confirmed AND critical) OR high',
      'status:confirmed severity:critical OR severity:high',
      [0, 1, 2],
    ],
    ['cwe, normalized', 'cwe:79', [0]],
    ['manual tags', 'tags:pci', [0]],
    ['report tags, glob', 'tags:team-*', [1]],
    ['baseline_state', 'baseline_state:unchanged', [1]],
    ['kind', 'kind:review', [3]],
    ['suppressed', 'suppressed:false', [0, 2, 3, 4]],
    ['component and version', 'component:lod component_version:4.17', [0]],
    ['service and ip', 'service:http ip:10.0.0', [0]],
    ['cve, any case', 'cve:cve-2021', [0]],
    ['unicode and LIKE metacharacters are literal', 'host:%', []],
  ])('%s: %s', async (_what, query, expected) => {
    expect(await q(query)).toEqual(pick(...expected));
  });

  it('project and product names', async () => {
    expect(await q(`product:"${product.name}" severity:info`)).toEqual(pick(4));
    expect(await q('project:no-such-project')).toEqual([]);
  });

  it.each([
    ['severity:', 10, 'expected a value after "severity:"'],
    ['host:a|', 8, 'expected a value after "|"'],
    ['host:""', 6, 'empty value after "host:"'],
    ['host:"abc', 6, 'unterminated quote'],
    ['colour:red', 1, 'unknown field "colour"'],
    ['severity:urgent', 10, '"urgent" is not a valid severity'],
    ['host>5', 5, 'comparison ">" is only allowed on numeric fields'],
    ['sla_days>abc', 10, 'expected a number after "sla_days>"'],
    ['sla_days>5|7', 11, 'a comparison takes a single value'],
    ['file_path:*ab*', 11, 'needs at least 3 characters besides "*"'],
    ['severity:*IGH*', 10, 'patterns with "*" are only allowed on text fields'],
    ['overflow AND', 10, '"AND" must be followed by a term'],
    ['OR severity:high', 1, 'a query cannot start with "OR"'],
    ['a AND OR b', 7, 'expected a term after "AND", found "OR"'],
    ['(severity:high)', 1, 'parentheses are not supported'],
    ['host:"a"b', 9, 'unexpected "b" after a quoted value'],
    [TOO_MANY_ALTERNATIVES, TOO_MANY_ALTERNATIVES.indexOf('h21') + 1, 'at most 20'],
    ['x'.repeat(2001), 2001, '2000'],
    [TOO_MANY_TERMS, TOO_MANY_TERMS.indexOf('t50') + 1, '50'],
  ])(
    'syntax error %#: 400 query_syntax_error at position %i, nothing run',
    async (query, position, problem) => {
      const res = await request(t.url)
        .get('/api/v1/findings')
        .query({ q: query })
        .set('Authorization', `Bearer ${admin.token}`)
        .expect(400);
      expect(res.body).toMatchObject({ code: 'query_syntax_error', position });
      expect(res.body.problem).toContain(problem);
      expect(res.body.error).toContain(`position ${position}: `);
    },
  );

  it('names the position and problem in Russian with Accept-Language: ru', async () => {
    const res = await request(t.url)
      .get('/api/v1/findings')
      .query({ q: 'severity:' })
      .set('Authorization', `Bearer ${admin.token}`)
      .set('Accept-Language', 'ru-RU')
      .expect(400);
    expect(res.headers['content-language']).toBe('ru');
    expect(res.body.error).toBe(
      'синтаксическая ошибка в запросе, позиция 10: expected a value after "severity:"',
    );
  });

  it('user values never reach SQL text: an injection attempt is just a value', async () => {
    expect(await q(`host:"'; DROP TABLE findings; --"`)).toEqual([]);
    expect(await q('severity:high')).toEqual(pick(1, 2));
  });
});
