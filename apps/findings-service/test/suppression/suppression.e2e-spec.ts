import request from 'supertest';
import { DataSource } from 'typeorm';
import { waitFor } from '@platform/testing';
import { bearer, type Auth } from '../support/catalog';
import { freshProduct, idsFor, listFindings, type Product } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { codeResultsSarif, type CodeResult } from '../support/synthetic-sarif';

/**
 * Suppression rules (docs/findings-service/suppression.md) on the real stack: reports go
 * through HTTP and the worker's ingestion, runs through the worker's suppression-run consumer.
 */
jest.setTimeout(180_000);

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

type Result = Omit<CodeResult, 'message'>;

function sarif(results: Result[], tool = 'SupScanner'): string {
  const described = results.map((r) => ({ ...r, message: `problem of ${r.rule} in ${r.file}` }));
  return codeResultsSarif(described, { tool });
}

async function scan(p: Product, results: Result[], tool?: string) {
  const id = await uploadReport(s.t, admin, p.id, sarif(results, tool));
  const report = await waitForReport(s.t, admin, id, 60_000);
  expect(report).toMatchObject({ status: 'completed' });
  return report;
}

const rulesUrl = (p: Product) => `/api/v1/projects/${p.project_id}/suppression-rules`;

async function createRule(p: Product, body: Record<string, unknown>) {
  const res = await admin.apply(request(s.t.url).post(rulesUrl(p)).send(body));
  expect(res.status).toBe(201);
  return (res.body as { data: Row & { id: string } }).data;
}

async function getRule(p: Product, id: string): Promise<Row> {
  const res = await admin.apply(request(s.t.url).get(rulesUrl(p))).expect(200);
  const rule = (res.body as { data: Row[] }).data.find((r) => r['id'] === id);
  if (!rule) throw new Error('rule gone');
  return rule;
}

async function runToEnd(p: Product, id: string): Promise<Row> {
  const res = await admin.apply(request(s.t.url).post(`${rulesUrl(p)}/${id}/run`)).expect(202);
  expect((res.body as { data: { last_run: Row } }).data.last_run).toMatchObject({
    state: 'running',
  });
  return waitFor(
    async () => {
      const run = (await getRule(p, id))['last_run'] as Row;
      if (run['state'] === 'running') throw new Error(`still running: ${JSON.stringify(run)}`);
      return run;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: 'suppression run finished' },
  );
}

const visible = (p: Product) => idsFor(s.t, admin, p, {});
const suppressedIds = (p: Product) => idsFor(s.t, admin, p, { suppression: 'only' });

describe('suppression rules', () => {
  it('suppress matching findings of the next upload and leave the others alone', async () => {
    const p = await freshProduct(s.t, s.admin);
    const rule = await createRule(p, {
      name: 'vendored noise',
      query: 'rule:SUP-NOISE file_path:vendor/*',
      reason: 'third-party code',
    });
    expect(rule).toMatchObject({ enabled: true, suppressed_findings: 0, last_run: null });
    const report = await scan(p, [
      { rule: 'SUP-NOISE', file: 'vendor/a.js' },
      { rule: 'SUP-NOISE', file: 'src/b.js' },
      { rule: 'REAL-1', file: 'vendor/c.js' },
    ]);
    expect(report.counts.new).toBe(3);

    const shown = await listFindings(s.t, admin, { product_id: p.id, limit: 50 });
    expect(shown.items.map((f) => (f['location'] as Row)['file_path']).sort()).toEqual([
      'src/b.js',
      'vendor/c.js',
    ]);
    expect(shown.items.every((f) => f['suppression_rule'] === null)).toBe(true);

    const only = await listFindings(s.t, admin, {
      product_id: p.id,
      suppression: 'only',
      limit: 50,
    });
    expect(only.items).toHaveLength(1);
    expect(only.items[0]).toMatchObject({
      location: { file_path: 'vendor/a.js' },
      status: 'new',
      suppressed: false,
      suppression_rule: { id: rule.id, name: 'vendored noise' },
    });
    const all = await idsFor(s.t, admin, p, { suppression: 'include' });
    expect(all).toHaveLength(3);
    const byRule = await idsFor(s.t, admin, p, { suppression_rule_id: rule.id });
    expect(byRule).toEqual([only.items[0].id]);

    // The single finding names the rule; its history has the rule in the `created` entry.
    const one = await admin
      .apply(request(s.t.url).get(`/api/v1/findings/${only.items[0].id}`))
      .expect(200);
    expect((one.body as { data: Row }).data['suppression_rule']).toMatchObject({ id: rule.id });
    const [created] = await sql(
      `SELECT to_value FROM finding_actions WHERE finding_id = $1 AND action = 'created'`,
      [only.items[0].id],
    );
    expect(created['to_value']).toMatchObject({ suppression_rule_id: rule.id });

    // A re-sighting changes nothing: a finding that existed before the rule is not suppressed
    // by ingestion, and the suppressed one stays so.
    await createRule(p, { name: 'late', query: 'rule:REAL-1' });
    await scan(p, [
      { rule: 'SUP-NOISE', file: 'vendor/a.js', line: 1 },
      { rule: 'SUP-NOISE', file: 'src/b.js', line: 2 },
      { rule: 'REAL-1', file: 'vendor/c.js', line: 3 },
    ]);
    expect(await suppressedIds(p)).toEqual([only.items[0].id]);
    expect((await getRule(p, rule.id))['suppressed_findings']).toBe(1);
  });

  it('a run applies a rule to accumulated findings with progress and a count; editing narrows; deleting restores', async () => {
    const p = await freshProduct(s.t, s.admin);
    const results: Result[] = [];
    for (let i = 0; i < 30; i += 1) {
      results.push({ rule: i % 3 === 0 ? 'OLD-A' : 'OLD-B', file: `lib/m${i % 5}/f${i}.py` });
    }
    await scan(p, results, 'OldScanner');
    const before = await visible(p);
    expect(before).toHaveLength(30);

    const rule = await createRule(p, { name: 'old scanner', query: 'scanner:OldScanner' });
    // A new rule does not touch accumulated findings before its run.
    expect(await visible(p)).toHaveLength(30);
    const preview = await admin
      .apply(
        request(s.t.url)
          .post(`${rulesUrl(p)}/preview`)
          .send({ query: 'rule:OLD-A' }),
      )
      .expect(200);
    expect((preview.body as { data: Row }).data).toMatchObject({
      matched: 10,
      already_suppressed: 0,
    });

    const run = await runToEnd(p, rule.id);
    expect(run).toMatchObject({ state: 'completed', total: 30, done: 30, matched: 30 });
    expect(await visible(p)).toEqual([]);
    expect(await suppressedIds(p)).toEqual(before);
    const logged = await sql(
      `SELECT count(*)::int AS n FROM finding_actions
        WHERE action = 'suppressed' AND finding_id = ANY($1::uuid[])`,
      [before],
    );
    expect(logged[0]['n']).toBe(30);

    // Narrowing releases what no longer matches.
    const put = await admin
      .apply(
        request(s.t.url)
          .put(`${rulesUrl(p)}/${rule.id}`)
          .send({ query: 'scanner:OldScanner rule:OLD-A' }),
      )
      .expect(200);
    expect((put.body as { data: Row }).data).toMatchObject({ suppressed_findings: 10 });
    expect(await visible(p)).toHaveLength(20);

    // Deleting restores every finding it suppressed, each with an `unsuppressed` entry.
    await admin.apply(request(s.t.url).delete(`${rulesUrl(p)}/${rule.id}`)).expect(204);
    expect(await visible(p)).toEqual(before);
    const released = await sql(
      `SELECT count(*)::int AS n FROM finding_actions
        WHERE action = 'unsuppressed' AND finding_id = ANY($1::uuid[])`,
      [before],
    );
    expect(released[0]['n']).toBe(30);
    // The rule's log is read through its route, oldest first, and outlives the rule.
    const logUrl = `${rulesUrl(p)}/${rule.id}/actions`;
    const ruleLog = (
      (await admin.apply(request(s.t.url).get(logUrl)).expect(200)).body as { data: Row[] }
    ).data;
    expect(ruleLog.map((r) => r['action'])).toEqual([
      'created',
      'run_started',
      'run_completed',
      'updated',
      'deleted',
    ]);
    expect(ruleLog[0]).toMatchObject({
      rule_id: rule.id,
      actor: { type: 'user', id: s.admin.userId },
    });
    expect(ruleLog[2]?.['to']).toMatchObject({ matched: 30 });
    expect(ruleLog[3]).toMatchObject({
      from: { query: 'scanner:OldScanner' },
      to: { query: 'scanner:OldScanner rule:OLD-A', released: 20 },
    });
    const page = await admin
      .apply(request(s.t.url).get(logUrl).query({ limit: 2, after: ruleLog[1]?.['id'] }))
      .expect(200);
    expect((page.body as { data: Row[] }).data.map((r) => r['action'])).toEqual([
      'run_completed',
      'updated',
    ]);
    const unknown = await admin.apply(
      request(s.t.url).get(`${rulesUrl(p)}/00000000-0000-4000-8000-000000000000/actions`),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'suppression_rule_not_found' });
    // Another project's rule log is not readable through this project.
    const other = await freshProduct(s.t, s.admin);
    await admin.apply(request(s.t.url).get(`${rulesUrl(other)}/${rule.id}/actions`)).expect(404);
    await admin.apply(request(s.t.url).get(`${rulesUrl(p)}`)).expect(200);
    await admin
      .apply(
        request(s.t.url)
          .put(`${rulesUrl(p)}/${rule.id}`)
          .send({ name: 'x' }),
      )
      .expect(404);
  });

  it('disabling releases the findings; a disabled rule neither runs nor suppresses new findings', async () => {
    const p = await freshProduct(s.t, s.admin);
    const rule = await createRule(p, { name: 'noise', query: 'rule:DIS-*' });
    await scan(p, [
      { rule: 'DIS-1', file: 'a.c' },
      { rule: 'KEEP', file: 'b.c' },
    ]);
    expect(await visible(p)).toHaveLength(1);
    await admin
      .apply(
        request(s.t.url)
          .put(`${rulesUrl(p)}/${rule.id}`)
          .send({ enabled: false }),
      )
      .expect(200);
    expect(await visible(p)).toHaveLength(2);
    const run = await admin.apply(request(s.t.url).post(`${rulesUrl(p)}/${rule.id}/run`));
    expect(run.status).toBe(409);
    expect(run.body).toMatchObject({ code: 'suppression_rule_disabled' });
    await scan(p, [{ rule: 'DIS-2', file: 'c.c' }]);
    expect(await visible(p)).toHaveLength(3);
  });

  it('refuses invalid and hostile rules with a clear 400, and hostile accepted ones never stall ingestion', async () => {
    const p = await freshProduct(s.t, s.admin);
    const refused: [string, string][] = [
      [`file_path:${'*'.repeat(10_000)}`, 'too_long'],
      ['file_path:**', 'syntax'],
      ['file_path:*a*b*c*d*e*f*g*h*i*', 'too_many_wildcards'],
      ['status:new', 'syntax'],
      ['scanner:zap password', 'full_text'],
      ['-scanner:zap', 'matches_everything'],
      ['severity:critical|high|medium|low|info', 'matches_everything'],
      ['scanner:(', 'syntax'],
    ];
    for (const [query, reason] of refused) {
      const res = await admin.apply(
        request(s.t.url).post(rulesUrl(p)).send({ name: 'hostile', query }),
      );
      expect({
        query: query.slice(0, 40),
        status: res.status,
        body: res.body as Row,
      }).toMatchObject({
        status: 400,
        body: { code: 'suppression_rule_invalid', details: { reason } },
      });
      expect(typeof (res.body as Row)['position']).toBe('number');
      const preview = await admin.apply(
        request(s.t.url)
          .post(`${rulesUrl(p)}/preview`)
          .send({ query }),
      );
      expect(preview.status).toBe(400);
    }
    expect((await admin.apply(request(s.t.url).get(rulesUrl(p))).expect(200)).body).toEqual({
      data: [],
    });

    // Accepted but odd: a traversal-looking pattern is a pattern (matches nothing here), and
    // 48 more rules with patterns of eight stars each; ingestion completes and suppresses
    // exactly what the rules say.
    await createRule(p, { name: 'dots', query: 'file_path:**/../../' });
    for (let i = 0; i < 48; i += 1) {
      await createRule(p, {
        name: `star ${i}`,
        query: `file_path:*a*a*a*a*a*a*a*${i}-zz OR rule:*never-${i}*`,
      });
    }
    await createRule(p, { name: 'tests', query: 'file_path:tests/*' });
    const results: Result[] = [];
    for (let i = 0; i < 400; i += 1) {
      results.push({
        rule: `H${i % 7}`,
        file: i % 4 === 0 ? `tests/t${i}.js` : `src/aaaaaaaa/s${i}.js`,
      });
    }
    const started = Date.now();
    await scan(p, results);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await suppressedIds(p)).toHaveLength(100);
    expect(await visible(p)).toHaveLength(300);
  });
});
