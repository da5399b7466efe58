import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  nextChunkSize,
  SuppressionRunRunner,
  type RunProgress,
} from '../../src/modules/suppression/suppression-run.runner';
import { SuppressionRunsRepository } from '../../src/modules/suppression/suppression-runs.repository';
import { SuppressionRulesRepository } from '../../src/modules/suppression/suppression-rules.repository';
import { storedPredicate } from '../../src/modules/suppression/suppression-query';
import { SUPPRESSION_RUN_MAX_CHUNK } from '../../src/modules/suppression/suppression-run.job';
import { bearer } from '../support/catalog';
import { freshProduct, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A run's chunks can change size (nextChunkSize; the sizes are given here): whatever the sizes,
 * a run walks every finding of the project once, suppresses exactly those its rule matches that
 * are neither suppressed already nor merged, writes one `suppressed` entry for each, and its
 * progress and the rule's run columns add up.
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

const sql = (text: string, values: unknown[] = []) =>
  db.query(text, values) as Promise<Record<string, unknown>[]>;

/** `n` findings: a quarter under lib/vendor/ (some with upper-case or non-ASCII segments). */
async function seed(p: Product, n: number): Promise<void> {
  await sql(
    `INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
       description, severity, status, file_path, scanner, sla_days, first_seen_at, last_seen_at)
     SELECT $1, $2, md5($4 || g::text) || md5(g::text || $4), 'code', 'rule-' || (g % 7), 't',
       'd', 'LOW', 'new',
       CASE WHEN g % 4 = 0 THEN (ARRAY['lib/vendor/', 'LIB/Vendor/', 'lib/vendör/'])[1 + g % 3]
         || 'x' || g ELSE 'src/f' || g END,
       'semgrep', 30, now(), now()
     FROM generate_series(1, $3::int) AS g`,
    [p.id, p.project_id, n, randomUUID()],
  );
}

async function createRule(p: Product, query: string): Promise<string> {
  const res = await bearer(admin).apply(
    request(t.url)
      .post(`/api/v1/projects/${p.project_id}/suppression-rules`)
      .send({ name: `r ${randomUUID()}`, query }),
  );
  expect(res.status).toBe(201);
  return String((res.body as { data: { id: string } }).data.id);
}

async function runToEnd(
  p: Product,
  ruleId: string,
  query: string,
  sizes: (size: number, ms: number) => number,
): Promise<{ result: unknown; reports: RunProgress[] }> {
  const runs = t.app.get(SuppressionRunsRepository);
  const jobId = `sup-${randomUUID()}`;
  expect(await runs.startRun(ruleId, jobId)).toBe(true);
  const reports: RunProgress[] = [];
  const result = await new SuppressionRunRunner(runs, t.app.get(SuppressionRulesRepository)).run(
    {
      jobId,
      projectId: p.project_id,
      ruleId,
      query,
      actor: { type: 'system', id: null, label: 't' },
    },
    async (progress) => {
      reports.push({ ...progress });
    },
    sizes,
  );
  return { result, reports };
}

describe('suppression run chunks', () => {
  it('sizes the next chunk by the last one within bounds (5 000 to SUPPRESSION_RUN_MAX_CHUNK, kept at 5 000)', () => {
    expect(nextChunkSize(5_000, 50)).toBe(SUPPRESSION_RUN_MAX_CHUNK);
    expect(nextChunkSize(5_000, 1_000)).toBe(5_000);
    expect(nextChunkSize(20_000, 2_001)).toBe(10_000);
    expect(nextChunkSize(5_000, 5_000)).toBe(5_000);
    expect(SUPPRESSION_RUN_MAX_CHUNK).toBe(5_000);
  });

  it('walks every finding once and suppresses exactly the matches, whatever the chunk sizes', async () => {
    const query = 'file_path:lib/vendor/*';
    for (const sizes of [
      // grows and ends on a short chunk; grows, shrinks back, then grows past the end
      [5_000, 7_000] as const,
      [5_000, 10_000, 5_000, 20_000] as const,
    ]) {
      const p = await freshProduct(t, admin);
      await seed(p, 17_003);
      const other = await createRule(p, 'file_path:*/x1*');
      // Already suppressed by another rule (kept by it) and merged findings are walked, not written.
      await sql(
        `UPDATE findings SET suppression_rule_id = $2, suppressed_at = now()
          WHERE project_id = $1 AND file_path ILIKE '%/x1%'`,
        [p.project_id, other],
      );
      const [survivor] = await sql(
        `SELECT id FROM findings WHERE project_id = $1 ORDER BY id LIMIT 1`,
        [p.project_id],
      );
      await sql(
        `UPDATE findings SET merged_into_id = $2
          WHERE project_id = $1 AND file_path ILIKE '%/x2%' AND id <> $2`,
        [p.project_id, survivor['id']],
      );
      const predicate = storedPredicate(query, 1);
      const [want] = await sql(
        `SELECT count(*)::int AS n FROM findings f WHERE f.project_id = $1
           AND f.suppression_rule_id IS NULL AND f.merged_into_id IS NULL
           AND (${predicate.sql}) IS TRUE`,
        [p.project_id, ...predicate.params],
      );
      const rule = await createRule(p, query);
      let call = 0;
      const { result, reports } = await runToEnd(p, rule, query, () => {
        call += 1;
        return sizes[Math.min(call, sizes.length - 1)];
      });
      expect(result).toEqual({
        state: 'completed',
        total: 17_003,
        done: 17_003,
        matched: want['n'],
      });
      expect(want['n']).toBeGreaterThan(1_000);
      // Progress after each chunk: the sizes asked for, the last one short.
      const walked = reports.slice(1).map((r, i) => r.done - reports[i].done);
      expect(walked.slice(0, -1)).toEqual(
        walked.slice(0, -1).map((_, i) => sizes[Math.min(i, sizes.length - 1)]),
      );
      expect(walked.reduce((a, b) => a + b, 0)).toBe(17_003);
      const [logged] = await sql(
        `SELECT count(*)::int AS n, count(DISTINCT a.finding_id)::int AS d FROM finding_actions a
           JOIN findings f ON f.id = a.finding_id
          WHERE f.project_id = $1 AND a.action = 'suppressed' AND a.to_value->>'suppression_rule_id' = $2`,
        [p.project_id, rule],
      );
      expect(logged).toEqual({ n: want['n'], d: want['n'] });
      const [held] = await sql(
        `SELECT count(*)::int AS n FROM findings WHERE suppression_rule_id = $1`,
        [rule],
      );
      expect(held['n']).toBe(want['n']);
      const [row] = await sql(
        `SELECT run_state, run_done, run_matched, run_after_id::text AS after FROM suppression_rules
          WHERE id = $1`,
        [rule],
      );
      const [last] = await sql(
        `SELECT id::text FROM findings WHERE project_id = $1 ORDER BY id DESC LIMIT 1`,
        [p.project_id],
      );
      expect(row).toEqual({
        run_state: 'completed',
        run_done: 17_003,
        run_matched: want['n'],
        after: last['id'],
      });
    }
  }, 120_000);
});
