import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { NormalizedFinding, Severity } from '@platform/report-parsing';
import { stagedBatch } from '../../src/modules/findings/bulk-write/finding-row';
import {
  BatchTarget,
  FindingsBulkWriteRepository,
} from '../../src/modules/findings/bulk-write/findings-bulk-write.repository';
import {
  SuppressionMatcher,
  suppressingStatementName,
} from '../../src/modules/suppression/suppression-matcher';
import {
  storedPredicate,
  validateRuleQuery,
} from '../../src/modules/suppression/suppression-query';
import { SuppressionRulesRepository } from '../../src/modules/suppression/suppression-rules.repository';
import { bearer } from '../support/catalog';
import { freshProduct, type Product, seedReport } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * What the ingestion write path suppresses must be what the rule itself says: over generated
 * rows (non-ASCII and mixed case, LIKE metacharacters, NULLs, arrays) and generated rules
 * (globs, quoted values, negations, OR, alternatives, array fields), the rule each inserted
 * finding gets — by the first ingest's plain insert with the rules, and by the upsert with the
 * rules (statements prepared per connection, docs/findings-service/suppression.md "Cost") — is
 * the first rule, in the matcher's order, whose stored predicate (what a run and the list's `q`
 * evaluate: ILIKE on the stored columns) holds for the stored finding.
 */
let t: TestApp;
let admin: Login;
let db: DataSource;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  db = t.app.get(DataSource);
}, 60_000);
afterAll(() => t?.close());

let seed = 11;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
}
const pick = <T>(values: readonly T[]): T => values[random(values.length)] as T;
const maybe = <T>(value: T): T | undefined => (random(3) === 0 ? undefined : value);

const PATHS = [
  'src/a.ts',
  'SRC/B.TS',
  'lib/vendor/x.c',
  'dir/Ä/ü.c',
  'dir/ä/x.c',
  '100%/a_b.c',
  '100x/aXb.c',
  'back\\slash/f.c',
  'İstanbul/ı.go',
  'ΣΑΣ/σ.c',
  'a*b/c.c',
];
const HOSTS = ['web.CORP', 'db', 'Straße.example', 'STRASSE.example', 'h_1.internal'];
const RULE_IDS = ['R1', 'r1', 'XSS_1', 'xss-1', 'Règle-É', 'é'];
const SCANNERS = ['CodeQL', 'semgrep', 'Сканер', 'СКАНЕР'];
const CVES = ['CVE-2024-0001', 'cve-2023-9'];
const CWES: string[][] = [[], ['CWE-79'], ['CWE-79', 'CWE-89']];
const TAGS: string[][] = [[], ['vendor'], ['Vendor', 'third_party'], ['ünïcode']];
const COMPONENTS = ['lodash', 'Lodash', 'jquery_ui'];
const SEVERITIES: Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];

const TERMS = [
  'file_path:src/*',
  'file_path:*/Ä/*',
  'file_path:*/ä/*',
  'file_path:"100%"',
  'file_path:*_b.c',
  'file_path:"a_b"',
  'file_path:"a*b"',
  'file_path:"\\\\"',
  'file_path:*STANBUL*',
  'file_path:*σ.c',
  'file_path:*ΣΑΣ*',
  'host:*.corp',
  'host:straße*',
  'host:STRASSE*',
  'host:"h_1"',
  'rule:r1',
  'rule:*SS_1',
  'rule:"règle"',
  'rule:RÈGLE*',
  'rule:xss*|é',
  'scanner:сканер',
  'scanner:СКАН*',
  'scanner:codeql|semgrep',
  'component:lodash',
  'component:"jquery_"',
  'cve:CVE-2024-*',
  'cve:2023',
  'cwe:79',
  'cwe:89|22',
  'tags:vendor',
  'tags:third*',
  'tags:ünï*',
  'severity:high|critical',
  'severity:info',
];

/** A rule text of 1-3 terms (some negated, joined by juxtaposition or OR) that validates. */
function ruleText(): string {
  for (;;) {
    const parts: string[] = [];
    const n = 1 + random(3);
    for (let i = 0; i < n; i += 1) {
      if (i > 0 && random(3) === 0) parts.push('OR');
      parts.push(`${random(4) === 0 ? '-' : ''}${pick(TERMS)}`);
    }
    const text = parts.join(' ');
    try {
      validateRuleQuery(text);
      return text;
    } catch {
      // e.g. only negated terms: draw again
    }
  }
}

function finding(): NormalizedFinding {
  const network = random(3) === 0;
  const id = randomUUID();
  return {
    rule_id: pick(RULE_IDS),
    title: 't',
    description: 'd',
    severity: pick(SEVERITIES),
    severity_source: 'result_level',
    location: network
      ? { kind: 'network', host: pick(HOSTS) }
      : { kind: 'file', path: pick(PATHS) },
    cve: maybe(pick(CVES)),
    cwe: pick(CWES),
    tags: pick(TAGS),
    component: maybe(pick(COMPONENTS)),
    scanner: pick(SCANNERS),
    suppressed: false,
    kind: 'fail',
    fingerprints: { fingerprints: {}, partial_fingerprints: {} },
    properties: {},
    identity: createHash('sha256').update(id).digest('hex'),
  };
}

async function createRule(projectId: string, query: string): Promise<void> {
  const res = await bearer(admin).apply(
    request(t.url)
      .post(`/api/v1/projects/${projectId}/suppression-rules`)
      .send({ name: `r ${randomUUID()}`, query }),
  );
  expect({ query, status: res.status }).toEqual({ query, status: 201 });
}

/** Writes the findings in batches of `size` with the project's rules, as the worker does. */
async function ingest(
  product: Product,
  findings: NormalizedFinding[],
  firstIngest: boolean,
): Promise<void> {
  const report = await seedReport(t, product);
  const target: BatchTarget = {
    reportId: report.id,
    productId: product.id,
    projectId: product.project_id,
    seenAt: report.created_at,
    sla: { CRITICAL: 7, HIGH: 14, MEDIUM: 30, LOW: 90, INFO: null },
    suppression: await t.app.get(SuppressionMatcher).forIngestion(product.project_id),
    ...(firstIngest ? { firstIngest: { insertOnly: true } } : {}),
  };
  const repo = new FindingsBulkWriteRepository(db);
  for (let index = 0; index * 25 < findings.length; index += 1) {
    const part = findings.slice(index * 25, index * 25 + 25);
    const outcome = await repo.writeBatch(
      target,
      {
        index,
        results: part.length,
        format: 'sarif',
        scanner: 'x',
        scannerVersion: null,
        revision: null,
      },
      stagedBatch(part),
    );
    expect(outcome).toMatchObject({ kind: 'written', counts: { new: part.length } });
  }
  if (firstIngest) expect(target.firstIngest).toEqual({ insertOnly: true });
}

/**
 * identity → rule id the write path stored (absent: not suppressed); the finding's `created`
 * entry names the same rule (and only then), and `suppressed_at` is set exactly then.
 */
async function suppressedBy(product: Product): Promise<Record<string, string>> {
  const rows = (await db.query(
    `SELECT f.identity_hash, f.suppression_rule_id::text AS rule,
            a.to_value->>'suppression_rule_id' AS logged, f.suppressed_at IS NOT NULL AS at,
            a.to_value - 'suppression_rule_id' = jsonb_build_object('status', 'new',
              'severity', f.severity, 'report_id', f.first_report_id::text) AS entry
       FROM findings f JOIN finding_actions a ON a.finding_id = f.id AND a.action = 'created'
      WHERE f.product_id = $1`,
    [product.id],
  )) as {
    identity_hash: string;
    rule: string | null;
    logged: string | null;
    at: boolean;
    entry: boolean;
  }[];
  for (const r of rows) {
    expect({ ...r, logged: r.logged, at: r.at, entry: r.entry }).toEqual({
      ...r,
      logged: r.rule,
      at: r.rule !== null,
      entry: true,
    });
  }
  return Object.fromEntries(
    rows.filter((r) => r.rule !== null).map((r) => [r.identity_hash, r.rule as string]),
  );
}

/** identity → the first rule (matcher order) whose stored predicate holds for the finding. */
async function expected(product: Product): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const rules = await t.app.get(SuppressionRulesRepository).enabled(product.project_id);
  for (const rule of rules) {
    const predicate = storedPredicate(rule.query, 1);
    const rows = (await db.query(
      `SELECT f.identity_hash FROM findings f WHERE f.product_id = $1 AND (${predicate.sql}) IS TRUE`,
      [product.id, ...predicate.params],
    )) as { identity_hash: string }[];
    for (const row of rows) out[row.identity_hash] ??= rule.id;
  }
  return out;
}

describe('suppression at ingestion agrees with the rules stored predicates', () => {
  it('suppresses exactly what the first matching rule says, by the plain insert and by the upsert', async () => {
    let suppressed = 0;
    let left = 0;
    for (let trial = 0; trial < 8; trial += 1) {
      const first = await freshProduct(t, admin);
      const upserted = await freshProduct(t, admin, first.project_id);
      const texts = Array.from({ length: 3 + random(6) }, ruleText);
      for (const text of texts) await createRule(first.project_id, text);
      const findings = Array.from({ length: 75 }, finding);
      await ingest(first, findings, true);
      await ingest(upserted, findings, false);
      const want = await expected(first);
      expect({ texts, got: await suppressedBy(first) }).toEqual({ texts, got: want });
      expect({ texts, got: await suppressedBy(upserted) }).toEqual({ texts, got: want });
      suppressed += Object.keys(want).length;
      left += findings.length - Object.keys(want).length;
    }
    // The sample exercises both outcomes.
    expect(suppressed).toBeGreaterThan(100);
    expect(left).toBeGreaterThan(100);
  }, 120_000);

  it('projects whose rules have one shape share one prepared statement, each with its own values', async () => {
    const a = await freshProduct(t, admin);
    const b = await freshProduct(t, admin);
    await createRule(a.project_id, 'file_path:src/*');
    await createRule(b.project_id, 'file_path:lib/*');
    const rows = (path: string) =>
      Array.from({ length: 5 }, () => ({
        ...finding(),
        location: { kind: 'file' as const, path },
      }));
    const findings = [...rows('src/x.c'), ...rows('lib/y.c')];
    const matcher = t.app.get(SuppressionMatcher);
    const [forA, forB] = [
      (await matcher.forIngestion(a.project_id))?.forBatch(stagedBatch(findings).facts),
      (await matcher.forIngestion(b.project_id))?.forBatch(stagedBatch(findings).facts),
    ];
    expect(forA?.upsert.name).toBeDefined();
    expect(forA?.upsert.name).toBe(forB?.upsert.name);
    expect(forA?.insertNew.name).toBe(forB?.insertNew.name);
    expect(suppressingStatementName(forA!.upsert.text)).toBe(forA?.upsert.name);
    // Several rounds: the pool's connections run the prepared statement with either's values.
    for (let round = 0; round < 3; round += 1) {
      for (const product of [a, b]) {
        const target = await freshProduct(t, admin, product.project_id);
        await ingest(target, findings, round % 2 === 0);
        const want = await expected(target);
        expect(Object.keys(want)).toHaveLength(5);
        expect(await suppressedBy(target)).toEqual(want);
      }
    }
  }, 60_000);
});
