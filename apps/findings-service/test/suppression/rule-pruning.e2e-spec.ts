import { Client } from 'pg';
import type { FactColumn, StagedFacts } from '../../src/modules/findings/bulk-write/finding-row';
import { loweredStage } from '../../src/modules/findings/suppression/finding-suppression.sql';
import { ruleMayMatch } from '../../src/modules/suppression/rule-pruning';
import { stagedRuleCase, validateRuleQuery } from '../../src/modules/suppression/suppression-query';

/**
 * Leaving a rule out of a batch's statement must change nothing: over random batches and rules,
 * whenever ruleMayMatch says a rule cannot meet a batch, PostgreSQL (the statement ingestion
 * runs, on the same rows) never matches it either.
 */
interface Row {
  scanner: string;
  rule_id: string;
  severity: string;
  file_path: string | null;
  host: string | null;
  component: string | null;
  cve: string | null;
  cwe: string[];
  report_tags: string[];
}

const SCANNERS = ['CodeQL', 'Semgrep OSS', 'semgrep', 'Trivy', 'a_b tool', 'Сканер', 'ZAP 2.14'];
const RULES = [
  'scanner:semgrep',
  'scanner:sem*',
  'scanner:*deql',
  'scanner:"a_b"',
  'scanner:codeql|trivy',
  'scanner:сканер',
  'scanner:zap rule:x1',
  '-scanner:codeql rule:r1',
  'host:*.corp',
  'host:db OR component:lodash',
  'component:lodash severity:high',
  'cve:CVE-2024-*',
  'cwe:79',
  'tags:vendor',
  'file_path:src/* scanner:trivy',
  'rule:r1 OR host:web',
  'host:a OR rule:r2 scanner:semgrep',
  '-host:*.corp rule:r3',
];

let seed = 7;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
}
const pick = <T>(values: readonly T[]): T => values[random(values.length)] as T;
const maybe = <T>(value: T): T | null => (random(3) === 0 ? value : null);

function row(scanners: readonly string[]): Row {
  return {
    scanner: pick(scanners),
    rule_id: pick(['r1', 'r2', 'r3', 'x1']),
    severity: pick(['CRITICAL', 'HIGH', 'LOW']),
    file_path: maybe(pick(['src/a.ts', 'lib/b.c'])),
    host: maybe(pick(['web.corp', 'db', 'a'])),
    component: maybe('lodash'),
    cve: maybe('CVE-2024-0001'),
    cwe: random(3) === 0 ? ['CWE-79'] : [],
    report_tags: random(4) === 0 ? ['vendor'] : [],
  };
}

function factsOf(rows: readonly Row[]): StagedFacts {
  const present = new Set<FactColumn>();
  for (const r of rows) {
    for (const c of ['file_path', 'host', 'component', 'cve'] as const) {
      if (r[c] !== null) present.add(c);
    }
    if (r.cwe.length > 0) present.add('cwe');
    if (r.report_tags.length > 0) present.add('report_tags');
  }
  return { scanners: [...new Set(rows.map((r) => r.scanner))], present: [...present] };
}

describe('suppression rule pruning against PostgreSQL', () => {
  it('a rule left out of a batch never matches a row of it', async () => {
    // Pure expressions over literal rows: any database of the stack evaluates them.
    const db = new Client({
      connectionString: process.env.STACK_PG_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    });
    await db.connect();
    try {
      let ruledOut = 0;
      let matchedWhilePossible = 0;
      for (let batch = 0; batch < 60; batch += 1) {
        const scanners = [pick(SCANNERS), pick(SCANNERS)].slice(0, 1 + random(2));
        const rows = Array.from({ length: 1 + random(6) }, () => row(scanners));
        const facts = factsOf(rows);
        for (const text of RULES) {
          const ruleCase = stagedRuleCase(
            [{ id: '00000000-0000-4000-8000-000000000001', query: text }],
            1,
          );
          const res = await db.query<{ n: number }>(
            `SELECT count(sup.by_rule)::int AS n
               FROM json_to_recordset($1::json) AS s(scanner text, rule_id text, severity text,
                      file_path text, host text, component text, cve text, cwe text[],
                      report_tags text[])
               CROSS JOIN LATERAL ${loweredStage(ruleCase!.sql)}
               CROSS JOIN LATERAL (SELECT ${ruleCase!.sql} AS by_rule OFFSET 0) sup`,
            [JSON.stringify(rows), ...ruleCase!.params],
          );
          const matched = res.rows[0]!.n;
          if (!ruleMayMatch(validateRuleQuery(text), facts)) {
            ruledOut += 1;
            expect({ text, rows, matched }).toEqual({ text, rows, matched: 0 });
          } else if (matched > 0) {
            matchedWhilePossible += 1;
          }
        }
      }
      // The sample exercises both sides.
      expect(ruledOut).toBeGreaterThan(100);
      expect(matchedWhilePossible).toBeGreaterThan(100);
    } finally {
      await db.end();
    }
  }, 120_000);
});
