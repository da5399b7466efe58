import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { waitFor } from '@platform/testing';
import { addJob } from '@platform/queue';
import { bearer, type Auth } from '../support/catalog';
import { freshProduct, type Product } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { SuppressionRunsRepository } from '../../src/modules/suppression/suppression-runs.repository';
import { suppressionTasks } from '../../src/modules/suppression/suppression.tasks';
import { storedPredicate } from '../../src/modules/suppression/suppression-query';
import { SUPPRESSION_RUN } from '../../src/modules/suppression/suppression-run.job';
import { SuppressionRunQueue } from '../../src/modules/suppression/suppression-run-queue.provider';
import { codeResultsSarif } from '../support/synthetic-sarif';

/**
 * Suppression runs (docs/findings-service/suppression.md) against merged findings and runs
 * whose worker died, on the real stack: reports through HTTP and the worker's ingestion, runs
 * through the worker's suppression-run consumer and BullMQ.
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

function sarif(results: { rule: string; file: string }[]): string {
  return codeResultsSarif(results, { tool: 'RunScanner' });
}

async function scan(p: Product, results: { rule: string; file: string }[]) {
  const id = await uploadReport(s.t, admin, p.id, sarif(results));
  expect(await waitForReport(s.t, admin, id, 60_000)).toMatchObject({ status: 'completed' });
}

const rulesUrl = (p: Product) => `/api/v1/projects/${p.project_id}/suppression-rules`;

async function createRule(p: Product, body: Row): Promise<string> {
  const res = await admin.apply(request(s.t.url).post(rulesUrl(p)).send(body)).expect(201);
  return (res.body as { data: { id: string } }).data.id;
}

async function getRule(p: Product, id: string): Promise<Row> {
  const res = await admin.apply(request(s.t.url).get(rulesUrl(p))).expect(200);
  const rule = (res.body as { data: Row[] }).data.find((r) => r['id'] === id);
  if (!rule) throw new Error('rule gone');
  return rule;
}

const startRun = (p: Product, id: string) =>
  admin.apply(request(s.t.url).post(`${rulesUrl(p)}/${id}/run`));

async function finished(p: Product, id: string, jobId?: string): Promise<Row> {
  return waitFor(
    async () => {
      const run = (await getRule(p, id))['last_run'] as Row;
      if (run['state'] === 'running' || (jobId && run['job_id'] !== jobId)) {
        throw new Error(`not finished: ${JSON.stringify(run)}`);
      }
      return run;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: 'suppression run finished' },
  );
}

async function runToEnd(p: Product, id: string): Promise<Row> {
  const res = await startRun(p, id).expect(202);
  return finished(
    p,
    id,
    (res.body as { data: { last_run: { job_id: string } } }).data.last_run.job_id,
  );
}

async function idOf(p: Product, rule: string): Promise<string> {
  const rows = await sql(`SELECT id::text FROM findings WHERE product_id = $1 AND rule_id = $2`, [
    p.id,
    rule,
  ]);
  expect(rows).toHaveLength(1);
  return String(rows[0]!['id']);
}

/** The finding's whole row as text (what an unmerge must give back), but `updated_at`. */
async function rowOf(id: string): Promise<Row> {
  const [row] = await sql(`SELECT to_jsonb(f) - 'updated_at' AS r FROM findings f WHERE id = $1`, [
    id,
  ]);
  return row!['r'] as Row;
}

const actionsOf = async (id: string) =>
  (await sql(`SELECT action FROM finding_actions WHERE finding_id = $1 ORDER BY id`, [id])).map(
    (r) => r['action'],
  );

describe('suppression and merged findings', () => {
  it('a run never writes a merged finding: after an unmerge it is exactly as before', async () => {
    const p = await freshProduct(s.t, s.admin);
    await scan(p, [
      { rule: 'MRG-KEEP', file: 'src/keep.c' },
      { rule: 'MRG-NOISE', file: 'src/noise.c' },
      { rule: 'MRG-OTHER', file: 'src/other.c' },
    ]);
    const survivor = await idOf(p, 'MRG-KEEP');
    const member = await idOf(p, 'MRG-NOISE');
    await admin
      .apply(
        request(s.t.url)
          .post('/api/v1/findings/merge')
          .send({ survivor_id: survivor, finding_ids: [member] }),
      )
      .expect(200);
    const before = await rowOf(member);
    expect(before).toMatchObject({ suppression_rule_id: null, suppressed_at: null });

    const rule = await createRule(p, { name: 'noise', query: 'rule:MRG-NOISE|MRG-OTHER' });
    // The preview counts what a run can suppress: the merged finding is not among them.
    const preview = await admin
      .apply(
        request(s.t.url)
          .post(`${rulesUrl(p)}/preview`)
          .send({ query: 'rule:MRG-NOISE|MRG-OTHER' }),
      )
      .expect(200);
    expect((preview.body as { data: Row }).data).toMatchObject({ matched: 1 });
    expect(await runToEnd(p, rule)).toMatchObject({ state: 'completed', matched: 1 });
    expect(await rowOf(member)).toEqual(before);
    expect(await actionsOf(member)).not.toContain('suppressed');

    // A report that still yields the merged identity re-sights the survivor; the rule applies
    // to inserted findings only, so neither is suppressed by it.
    await scan(p, [
      { rule: 'MRG-KEEP', file: 'src/keep.c' },
      { rule: 'MRG-NOISE', file: 'src/noise.c' },
    ]);
    expect(await rowOf(member)).toEqual(before);

    await admin.apply(request(s.t.url).post(`/api/v1/findings/${member}/unmerge`)).expect(200);
    const after = await rowOf(member);
    expect(after).toEqual({ ...before, merged_into_id: null, merged_at: null });
    expect(after).toMatchObject({ suppression_rule_id: null, suppressed_at: null });
    // Back in the lists, the next run reaches it.
    expect(await runToEnd(p, rule)).toMatchObject({ state: 'completed', matched: 1 });
    expect(await rowOf(member)).toMatchObject({ suppression_rule_id: rule });
  });

  it('deleting the rule of a finding suppressed before its merge releases it (no rule left behind on unmerge)', async () => {
    const p = await freshProduct(s.t, s.admin);
    const rule = await createRule(p, { name: 'early', query: 'rule:EARLY-*' });
    await scan(p, [
      { rule: 'EARLY-SURV', file: 'a.c' },
      { rule: 'EARLY-MEMBER', file: 'b.c' },
    ]);
    const survivor = await idOf(p, 'EARLY-SURV');
    const member = await idOf(p, 'EARLY-MEMBER');
    expect(await rowOf(member)).toMatchObject({ suppression_rule_id: rule });
    await admin
      .apply(
        request(s.t.url)
          .post('/api/v1/findings/merge')
          .send({ survivor_id: survivor, finding_ids: [member] }),
      )
      .expect(200);
    await admin.apply(request(s.t.url).delete(`${rulesUrl(p)}/${rule}`)).expect(204);
    await admin.apply(request(s.t.url).post(`/api/v1/findings/${member}/unmerge`)).expect(200);
    expect(await rowOf(member)).toMatchObject({ suppression_rule_id: null, suppressed_at: null });
    expect((await actionsOf(member)).slice(-3)).toEqual(['merged', 'unsuppressed', 'unmerged']);
  });
});

describe('a run whose worker died', () => {
  async function seeded(n: number): Promise<{ p: Product; rule: string; ids: string[] }> {
    const p = await freshProduct(s.t, s.admin);
    const results = Array.from({ length: n }, (_, i) => ({
      rule: i % 2 === 0 ? 'DEAD-A' : 'DEAD-B',
      file: `lib/f${i}.py`,
    }));
    await scan(p, results);
    const rule = await createRule(p, { name: 'dead', query: 'rule:DEAD-A' });
    const ids = (
      await sql(`SELECT id::text FROM findings WHERE product_id = $1 ORDER BY id`, [p.id])
    ).map((r) => String(r['id']));
    return { p, rule, ids };
  }

  /** The rule as a worker that died would leave it: `running` run `jobId`, last sign of life `age` ago. */
  const leftRunning = (rule: string, jobId: string, age: string) =>
    sql(
      `UPDATE suppression_rules SET run_state = 'running', run_job_id = $2, run_total = 0,
         run_done = 0, run_matched = 0, run_started_at = now() - $3::interval,
         run_finished_at = NULL, run_heartbeat_at = now() - $3::interval, run_after_id = NULL
       WHERE id = $1`,
      [rule, jobId, age],
    );

  it('a run whose queue job is gone is replaced by the next one and marked failed', async () => {
    const { p, rule } = await seeded(6);
    const dead = `sup-${randomUUID()}`;
    await leftRunning(rule, dead, '5 seconds');
    const res = await startRun(p, rule).expect(202);
    const jobId = (res.body as { data: { last_run: { job_id: string } } }).data.last_run.job_id;
    expect(jobId).not.toBe(dead);
    expect(await finished(p, rule, jobId)).toMatchObject({
      state: 'completed',
      total: 6,
      done: 6,
      matched: 3,
    });
    const log = await sql(
      `SELECT action, to_value FROM suppression_rule_actions WHERE rule_id = $1 ORDER BY id`,
      [rule],
    );
    expect(log.map((r) => r['action'])).toEqual([
      'created',
      'run_failed',
      'run_started',
      'run_completed',
    ]);
    expect(log[1]!['to_value']).toMatchObject({ job_id: dead, cause: 'job_gone' });
  });

  it('a run ends together with its log entry: when the entry cannot be written, the run is failed, never completed without it', async () => {
    const { p, rule } = await seeded(4);
    // The completion entry of this rule fails to insert (as a crash or a lost connection
    // between the run's end and its entry would leave it).
    const trigger = `refuse_${rule.replace(/-/g, '_')}`;
    await sql(
      `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.rule_id = '${rule}' AND NEW.action = 'run_completed' THEN
           RAISE EXCEPTION 'completion entry refused by the test';
         END IF;
         RETURN NEW;
       END $$`,
    );
    await sql(
      `CREATE TRIGGER ${trigger} BEFORE INSERT ON suppression_rule_actions
         FOR EACH ROW EXECUTE FUNCTION ${trigger}()`,
    );
    try {
      const res = await startRun(p, rule).expect(202);
      const jobId = (res.body as { data: { last_run: { job_id: string } } }).data.last_run.job_id;
      expect(await finished(p, rule, jobId)).toMatchObject({ state: 'failed' });
      const log = await sql(
        `SELECT action, to_value FROM suppression_rule_actions WHERE rule_id = $1 ORDER BY id`,
        [rule],
      );
      expect(log.map((r) => r['action'])).toEqual(['created', 'run_started', 'run_failed']);
      expect(log[2]!['to_value']).toMatchObject({ job_id: jobId, cause: 'error' });
    } finally {
      await sql(`DROP TRIGGER ${trigger} ON suppression_rule_actions`);
      await sql(`DROP FUNCTION ${trigger}()`);
    }
  });

  it('a live job keeps the rule busy (409) until its heartbeat is stale', async () => {
    const { p, rule } = await seeded(4);
    const queue = s.t.app.get(SuppressionRunQueue).queue;
    const held = `sup-${randomUUID()}`;
    // A job the worker will not take for an hour: waiting as a stuck job would.
    await addJob(
      queue,
      SUPPRESSION_RUN,
      {
        jobId: held,
        projectId: p.project_id,
        ruleId: rule,
        query: 'rule:DEAD-A',
        actor: { type: 'system', id: null, label: 'test' },
      },
      { jobId: held, delay: 3_600_000 },
    );
    try {
      await leftRunning(rule, held, '1 second');
      const busy = await startRun(p, rule).expect(409);
      expect(busy.body).toMatchObject({ code: 'suppression_rule_running' });
      expect(((await getRule(p, rule))['last_run'] as Row)['job_id']).toBe(held);

      await leftRunning(rule, held, '11 minutes');
      const res = await startRun(p, rule).expect(202);
      const jobId = (res.body as { data: { last_run: { job_id: string } } }).data.last_run.job_id;
      expect(await finished(p, rule, jobId)).toMatchObject({ state: 'completed', matched: 2 });
      const [failed] = await sql(
        `SELECT to_value FROM suppression_rule_actions WHERE rule_id = $1 AND action = 'run_failed'`,
        [rule],
      );
      expect(failed!['to_value']).toMatchObject({ job_id: held, cause: 'stale' });
    } finally {
      await (await queue.getJob(held))?.remove();
    }
  });

  it('the worker’s sweep marks a run with a stale heartbeat failed on its own; a live one is left alone', async () => {
    const dead = await seeded(2);
    const live = await seeded(2);
    const deadJob = `sup-${randomUUID()}`;
    const liveJob = `sup-${randomUUID()}`;
    await leftRunning(dead.rule, deadJob, '11 minutes');
    await leftRunning(live.rule, liveJob, '5 seconds');
    const [task] = suppressionTasks(s.t.app.get(SuppressionRunsRepository));
    await task!.run();
    expect(((await getRule(dead.p, dead.rule))['last_run'] as Row)['state']).toBe('failed');
    expect((await getRule(live.p, live.rule))['last_run'] as Row).toMatchObject({
      job_id: liveJob,
      state: 'running',
    });
    const log = await sql(
      `SELECT actor_type, actor_label, to_value FROM suppression_rule_actions
        WHERE rule_id = $1 AND action = 'run_failed'`,
      [dead.rule],
    );
    expect(log).toEqual([
      {
        actor_type: 'system',
        actor_label: 'suppression-run-sweep',
        to_value: { job_id: deadJob, cause: 'stale', done: 0 },
      },
    ]);
    // Once failed, the sweep leaves it; the next run starts at once.
    await task!.run();
    expect(
      await sql(
        `SELECT 1 FROM suppression_rule_actions WHERE rule_id = $1 AND action = 'run_failed'`,
        [dead.rule],
      ),
    ).toHaveLength(1);
    const res = await startRun(dead.p, dead.rule).expect(202);
    const jobId = (res.body as { data: { last_run: { job_id: string } } }).data.last_run.job_id;
    expect(await finished(dead.p, dead.rule, jobId)).toMatchObject({ state: 'completed' });
  });

  it('a retried job resumes after the last committed chunk: nothing counted or logged twice', async () => {
    const { p, rule, ids } = await seeded(30);
    const repo = s.t.app.get(SuppressionRunsRepository);
    const jobId = `sup-${randomUUID()}`;
    const actor = { type: 'system' as const, id: null, label: 'test' };
    // The first attempt: started, one chunk of 10 committed, then the worker died.
    expect(await repo.startRun(rule, jobId)).toBe(true);
    const started = await repo.resumeRun(rule, jobId, async () => 30);
    expect(started).toEqual({ total: 30, done: 0, matched: 0, afterId: null });
    const chunk = await repo.runChunk({
      projectId: p.project_id,
      ruleId: rule,
      jobId,
      query: 'rule:DEAD-A',
      after: '00000000-0000-0000-0000-000000000000',
      size: 10,
      actor,
      predicate: storedPredicate('rule:DEAD-A', 7),
    });
    expect(chunk).toMatchObject({ lastId: ids[9], walked: 10 });
    // BullMQ hands the same job to a worker again (stalled job moved back to wait).
    await addJob(
      s.t.app.get(SuppressionRunQueue).queue,
      SUPPRESSION_RUN,
      { jobId, projectId: p.project_id, ruleId: rule, query: 'rule:DEAD-A', actor },
      { jobId },
    );
    expect(await finished(p, rule, jobId)).toMatchObject({
      state: 'completed',
      total: 30,
      done: 30,
      matched: 15,
    });
    const logged = await sql(
      `SELECT count(*)::int AS n, count(DISTINCT finding_id)::int AS d FROM finding_actions
        WHERE action = 'suppressed' AND finding_id = ANY($1::uuid[])`,
      [ids],
    );
    expect(logged[0]).toEqual({ n: 15, d: 15 });
  });
});
