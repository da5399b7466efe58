import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { bearer, type Auth } from '../support/catalog';
import { freshProduct, type Product } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';

/**
 * The precomputed roll-up counts (`finding_rollup_counts`, kept by the triggers of migration
 * 1795607500000; docs/findings-service/groups-and-rollups.md "Precomputed counts") on real
 * PostgreSQL, the API and the worker: after every kind of write of findings the counts equal a
 * recomputation from findings, and the roll-up rows the counts answer equal their member
 * lists; concurrent writers neither wait on the counts nor deadlock nor drift.
 */

let s: IngestionStack;
let admin: Auth;

beforeAll(async () => {
  s = await startIngestion({ worker: true });
  admin = bearer(s.admin);
});
afterAll(() => s?.close());

type Row = Record<string, unknown>;
const sql = (text: string, values: unknown[] = []) =>
  s.t.app.get(DataSource).query(text, values) as Promise<Row[]>;
const api = () => request(s.t.url);
const u = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

interface Result {
  rule: string;
  component?: string;
  host?: string;
  cve?: string;
  level?: 'error' | 'warning' | 'note';
}

/** A SARIF log whose results carry a package, host and CVE (result properties). */
function sarif(results: Result[]): string {
  return JSON.stringify({
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'RollupScanner', rules: results.map((r) => ({ id: r.rule })) } },
        results: results.map((r) => ({
          ruleId: r.rule,
          level: r.level ?? 'warning',
          message: { text: `problem of ${r.rule}` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: `src/${r.rule}.c` },
                region: { startLine: 1 },
              },
            },
          ],
          properties: {
            ...(r.component ? { component: r.component } : {}),
            ...(r.host ? { host: r.host } : {}),
            ...(r.cve ? { cve: r.cve } : {}),
          },
        })),
      },
    ],
  });
}

async function scan(p: Product, results: Result[]): Promise<void> {
  const id = await uploadReport(s.t, admin, p.id, sarif(results));
  expect(await waitForReport(s.t, admin, id, 60_000)).toMatchObject({ status: 'completed' });
}

/**
 * The counters — folded counts plus unfolded deltas — as `axis|key|project|severity|status -> n`
 * (zero sums left out).
 */
async function counters(): Promise<Record<string, number>> {
  const rows = await sql(`SELECT axis, key, project_id, severity, status, sum(n)::int AS n
    FROM (SELECT axis, key, project_id, severity, status, n FROM finding_rollup_counts
      UNION ALL SELECT axis, key, project_id, severity, status, n FROM finding_rollup_deltas) c
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0`);
  return Object.fromEntries(
    rows.map((r) => [
      `${r['axis']}|${r['key']}|${r['project_id']}|${r['severity']}|${r['status']}`,
      r['n'],
    ]),
  ) as Record<string, number>;
}

/** The same, recomputed from findings (the lists' default: not merged, not suppressed). */
async function recomputed(): Promise<Record<string, number>> {
  const rows =
    await sql(`SELECT a.axis, a.key, f.project_id, f.severity, f.status, count(*)::int AS n
    FROM findings f
    CROSS JOIN LATERAL (VALUES ('package', f.component), ('host', f.host), ('cve', f.cve::text)) a(axis, key)
    WHERE f.merged_into_id IS NULL AND f.suppression_rule_id IS NULL
      AND a.key <> '' AND octet_length(a.key) <= 2000
    GROUP BY 1, 2, 3, 4, 5`);
  return Object.fromEntries(
    rows.map((r) => [
      `${r['axis']}|${r['key']}|${r['project_id']}|${r['severity']}|${r['status']}`,
      r['n'],
    ]),
  ) as Record<string, number>;
}

async function expectExact(what: string): Promise<void> {
  const [have, want] = [await counters(), await recomputed()];
  expect({ what, counts: have }).toEqual({ what, counts: want });
}

async function idOf(p: Product, rule: string): Promise<string> {
  const [row] = await sql(`SELECT id::text FROM findings WHERE product_id = $1 AND rule_id = $2`, [
    p.id,
    rule,
  ]);
  return String(row!['id']);
}

/** Roll-up rows of a project (every page) and the total of each row's member list. */
async function expectRowsEqualMembers(p: Product, axis: string): Promise<number> {
  const res = await admin
    .apply(
      api()
        .get('/api/v1/findings/inventory-rollup')
        .query({ axis, project_id: p.project_id, limit: 200 }),
    )
    .expect(200);
  const rows = (
    res.body as {
      data: { items: { key: string; total: number; by_status: Record<string, number> }[] };
    }
  ).data.items;
  for (const row of rows) {
    const members = await admin
      .apply(
        api()
          .get('/api/v1/findings/inventory-rollup/members')
          .query({ axis, key: row.key, project_id: p.project_id, limit: 200 }),
      )
      .expect(200);
    const items = (members.body as { data: { items: { status: string }[] } }).data.items;
    expect({ key: row.key, total: row.total }).toEqual({ key: row.key, total: items.length });
  }
  return rows.length;
}

describe('Roll-up counts - kept exact by the database on every write of findings', () => {
  it('equal a recomputation after ingestion, re-sightings, status changes, merge, suppression, edits and deletes', async () => {
    const p = await freshProduct(s.t, s.admin);
    const q = await freshProduct(s.t, s.admin, p.project_id);
    const [pkg, pkg2, host, cve] = [u('pkg'), u('lib'), u('host'), 'CVE-2031-0001'];
    // A host finding's identity is its host and CVE (not the rule): each has its own CVE.
    const base: Result[] = [
      { rule: 'R1', component: pkg, host, cve, level: 'error' },
      { rule: 'R2', component: pkg, host, cve: 'CVE-2031-0002' },
      { rule: 'R3', component: pkg2, cve, level: 'note' },
      { rule: 'R4', component: pkg2, host, cve: 'CVE-2031-0004' },
      { rule: 'R5', component: pkg, level: 'error' },
      { rule: 'NOISE', component: pkg, host, cve: 'CVE-2031-0006' },
    ];
    await scan(p, base); // first ingestion: inserts
    await scan(q, base.slice(0, 3));
    await expectExact('first ingestion');

    // Re-sightings (same report): counters unchanged; a fixed finding re-sighted is renewed.
    const r1 = await idOf(p, 'R1');
    await admin.apply(api().patch(`/api/v1/findings/${r1}`).send({ status: 'fixed' })).expect(200);
    await expectExact('single status change');
    await scan(p, base);
    expect((await sql(`SELECT status FROM findings WHERE id = $1`, [r1]))[0]).toEqual({
      status: 'renewed',
    });
    await expectExact('re-sighting, fixed -> renewed');
    // A re-sighting that changes no counted column nets to zero and appends no delta.
    const deltas = `SELECT max(id)::text AS last FROM finding_rollup_deltas`;
    const before = await sql(deltas);
    await scan(q, base.slice(0, 3));
    expect(await sql(deltas)).toEqual(before);
    // A fold moves the deltas into the counts and changes no counter; a roll-up read folds.
    await sql(`SELECT findings_rollup_fold()`);
    expect(await sql(`SELECT count(*)::int AS n FROM finding_rollup_deltas`)).toEqual([{ n: 0 }]);
    await expectExact('after a fold');
    const q1 = await idOf(q, 'R1');
    await admin
      .apply(api().patch(`/api/v1/findings/${q1}`).send({ status: 'confirmed' }))
      .expect(200);
    const pending = await sql(`SELECT count(*)::int AS n FROM finding_rollup_deltas`);
    expect(pending[0]!['n']).toBeGreaterThan(0);
    await expectRowsEqualMembers(q, 'package');
    expect(await sql(`SELECT count(*)::int AS n FROM finding_rollup_deltas`)).toEqual([{ n: 0 }]);
    await expectExact('status change folded by a roll-up read');

    // Bulk status by ids, by a group, by a roll-up row.
    const [r2, r3] = [await idOf(p, 'R2'), await idOf(p, 'R3')];
    await admin
      .apply(
        api()
          .post('/api/v1/findings/bulk-status')
          .send({ finding_ids: [r2, r3], status: 'confirmed' }),
      )
      .expect(200);
    await admin
      .apply(
        api()
          .post('/api/v1/findings/bulk-status')
          .send({ group: { finding_id: r2, axis: 'host' }, status: 'in_progress' }),
      )
      .expect(200);
    await admin
      .apply(
        api()
          .post('/api/v1/findings/inventory-rollup/bulk-status')
          .send({
            axis: 'package',
            key: pkg2,
            action: 'wont_fix',
            justification: 'vendored',
            filters: { project_id: p.project_id },
          }),
      )
      .expect(200);
    await expectExact('bulk status by ids, group and roll-up row');

    // Merge and unmerge.
    const [r4, r5] = [await idOf(p, 'R4'), await idOf(p, 'R5')];
    await admin
      .apply(
        api()
          .post('/api/v1/findings/merge')
          .send({ survivor_id: r4, finding_ids: [r5] }),
      )
      .expect(200);
    await expectExact('merge');
    await admin.apply(api().post(`/api/v1/findings/${r5}/unmerge`)).expect(200);
    await expectExact('unmerge');

    // Suppression: a rule on the next upload, a run over accumulated findings, the rule deleted.
    const rules = `/api/v1/projects/${p.project_id}/suppression-rules`;
    const created = await admin
      .apply(api().post(rules).send({ name: 'noise', query: 'rule:NOISE|LATE-NOISE' }))
      .expect(201);
    const ruleId = (created.body as { data: { id: string } }).data.id;
    await scan(p, [...base, { rule: 'LATE-NOISE', component: pkg, host, cve: 'CVE-2031-0007' }]);
    expect(
      await sql(
        `SELECT 1 FROM findings WHERE rule_id = 'LATE-NOISE' AND suppression_rule_id IS NOT NULL`,
      ),
    ).toHaveLength(1);
    await expectExact('suppressed at ingestion');
    await admin.apply(api().post(`${rules}/${ruleId}/run`)).expect(202);
    await waitForCondition(
      async () =>
        (
          await sql(
            `SELECT 1 FROM findings WHERE product_id = $1 AND rule_id = 'NOISE' AND suppression_rule_id IS NOT NULL`,
            [p.id],
          )
        ).length === 1,
    );
    await expectExact('suppression run');
    await admin.apply(api().delete(`${rules}/${ruleId}`)).expect(204);
    await waitForCondition(
      async () =>
        (
          await sql(
            `SELECT 1 FROM findings WHERE product_id = $1 AND suppression_rule_id IS NOT NULL`,
            [p.id],
          )
        ).length === 0,
    );
    await expectExact('rule deleted: suppression undone');

    // Any other statement (enrichment, an edit of host, package or CVE; a finding deleted).
    await sql(
      `UPDATE findings SET host = $2, component = NULL, cve = 'CVE-2031-0002' WHERE id = $1`,
      [r2, u('moved')],
    );
    await expectExact('host, package and CVE changed');
    await admin.apply(api().delete(`/api/v1/findings/${r3}`)).expect(204);
    await expectExact('finding deleted');
    expect(await expectRowsEqualMembers(p, 'package')).toBeGreaterThan(0);
    expect(await expectRowsEqualMembers(p, 'host')).toBeGreaterThan(0);

    // The roll-up reads the counts when its selection is theirs, the findings otherwise (q).
    const planted = u('planted');
    await sql(
      `INSERT INTO finding_rollup_counts (axis, key, project_id, severity, status, n)
       VALUES ('package', $1, $2, 'LOW', 'new', 1)`,
      [planted, p.project_id],
    );
    const keys = async (query: Record<string, string>) =>
      (
        (
          await admin
            .apply(
              api()
                .get('/api/v1/findings/inventory-rollup')
                .query({ axis: 'package', project_id: p.project_id, ...query }),
            )
            .expect(200)
        ).body as { data: { items: { key: string }[] } }
      ).data.items.map((r) => r.key);
    expect(await keys({})).toContain(planted);
    expect(await keys({ severity: 'LOW' })).toContain(planted);
    expect(await keys({ q: 'severity:low' })).not.toContain(planted);
    expect(await keys({ suppression: 'include' })).not.toContain(planted);
    await sql(`DELETE FROM finding_rollup_counts WHERE key = $1`, [planted]);

    // A product deleted: its findings leave the counts (cascade).
    await admin.apply(api().delete(`/api/v1/products/${q.id}`)).expect(204);
    await expectExact('product deleted');
  });

  it('concurrent writers of one project never wait on the counts: no deadlock, no drift', async () => {
    const p = await freshProduct(s.t, s.admin);
    const other = await freshProduct(s.t, s.admin, p.project_id);
    const pkg = u('pkg');
    const results = (prefix: string): Result[] =>
      Array.from({ length: 40 }, (_, i) => ({
        rule: `${prefix}${i}`,
        component: pkg,
        host: `h${i % 3}`,
        cve: `CVE-2031-${1000 + i}`,
      }));
    await scan(p, results('A'));
    const [x, y] = [await idOf(p, 'A1'), await idOf(p, 'A2')];

    // Two transactions change findings of the same counters; the second must not wait for the
    // first's counters (an upsert of shared counter rows would), then the first waits for the
    // second's finding row only: no cycle.
    const one = new Client({ connectionString: s.t.config.databaseUrl });
    const two = new Client({ connectionString: s.t.config.databaseUrl });
    await Promise.all([one.connect(), two.connect()]);
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      await two.query(`SET LOCAL lock_timeout = '3s'`);
      await one.query(`UPDATE findings SET status = 'confirmed' WHERE id = $1`, [x]);
      await two.query(`UPDATE findings SET status = 'confirmed' WHERE id = $1`, [y]);
      const late = one.query(`UPDATE findings SET status = 'in_progress' WHERE id = $1`, [y]);
      await two.query('COMMIT');
      await late;
      await one.query('COMMIT');
    } finally {
      await Promise.all([one.end(), two.end()]);
    }
    await expectExact('two open transactions on shared counters');

    // Two ingestions and a bulk status on the same project at once.
    const [a, b] = await Promise.all([
      uploadReport(s.t, admin, p.id, sarif([...results('A'), ...results('B')])),
      uploadReport(s.t, admin, other.id, sarif(results('C'))),
    ]);
    const bulk = admin.apply(
      api()
        .post('/api/v1/findings/bulk-status')
        .send({ filters: { project_id: p.project_id }, status: 'confirmed' }),
    );
    const [, ra, rb] = await Promise.all([
      bulk.expect(200),
      waitForReport(s.t, admin, a, 60_000),
      waitForReport(s.t, admin, b, 60_000),
    ]);
    expect([ra.status, rb.status]).toEqual(['completed', 'completed']);
    await expectExact('two ingestions and a bulk status at once');
    expect(await expectRowsEqualMembers(p, 'host')).toBe(3);
  });
});

async function waitForCondition(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}
