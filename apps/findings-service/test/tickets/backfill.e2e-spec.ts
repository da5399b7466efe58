import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import request from 'supertest';
import { createRedisConnection } from '@platform/queue';
import { buildPlugin, componentCacheDir } from '@platform/plugin-sdk/build';
import { publisherKey } from '@platform/plugin-protocol/testing';
import type { ServiceProcess } from '@platform/testing';
import { bearer } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { freshMember, freshProduct, seedFindings, type Product } from '../support/findings-seed';
import { NEVER, startLifecycleWorker } from '../support/lifecycle-worker';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  startRunnerProcess,
  type SignedCatalogPlugin,
} from '../catalog-plugins/support/catalog-plugin-lab';
import { seedInstalledPlugin } from '../catalog-plugins/support/installed-plugin-seed';
import { startJiraStandIn, type JiraStandIn } from './support/jira-stand-in';

// The history backfill (design §3.6) through the real runner and the worker's queue consumer:
// the jira-like test provider against the loopback Jira REST stand-in.
const publisher = publisherKey();
jest.setTimeout(300_000);

const TOKEN = 'jira-token-secret-0123456789';
let runner: ServiceProcess | undefined;
let worker: INestApplicationContext | undefined;
let jira: JiraStandIn;
let t: TestApp;
let admin: Login;
let analyst: Login;
let product: Product;
let runnerEnv: Record<string, string>;

async function buildProvider(): Promise<SignedCatalogPlugin> {
  const out = await mkdtemp(join(tmpdir(), 'jira-like-provider-'));
  try {
    const built = await buildPlugin({
      sourceDir: join(__dirname, 'fixtures/jira-like-provider'),
      outDir: out,
      cacheDir: componentCacheDir(process.env),
      privateKeyPem: publisher.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    return { ...built, signature: built.signature ?? '' };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  const provider = await buildProvider();
  jira = await startJiraStandIn();
  const started = await startRunnerProcess();
  runner = started.runner;
  runnerEnv = {
    PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
    PLUGIN_RUNNER_CLIENT_TIMEOUT_MS: '240000',
  };
  t = await startTestApp(runnerEnv);
  admin = await loginAdmin(t);
  product = await freshProduct(t, admin);
  analyst = await freshMember(t, admin, product.project_id, 'analyst');
  const providerId = await seedInstalledPlugin(t, provider, {
    publicKeyPem: publisher.publicKeyPem,
    settings: { base_url: jira.url },
  });
  await bearer(admin)
    .apply(
      request(t.url)
        .put(`/api/v1/projects/${product.project_id}/ticket-provider/config`)
        .send({
          plugin_id: providerId,
          settings: { base_url: jira.url, project_key: 'SEC', api_token: TOKEN },
          default_target: 'SEC',
        }),
    )
    .expect(200);
}, 3 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await worker?.close();
  await t?.close();
  await runner?.stop();
  await jira?.close();
});

const backfillPath = () => `/api/v1/projects/${product.project_id}/tickets/backfill`;
const start = (body: object, who: Login = admin) =>
  bearer(who).apply(request(t.url).post(backfillPath()).send(body));

const row = (id: string) =>
  withDb(
    t,
    async (db) => (await db.query(`SELECT * FROM ticket_backfills WHERE id = $1`, [id])).rows[0],
  );

async function finished(id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i += 1) {
    const r = await row(id);
    if (r && r.state !== 'running') return r;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`backfill ${id} still running`);
}

let failedJob = '';

/** Polls GET /jobs/{id} (as the admin) until the job is in `state`. */
async function waitForJob(path: string, state: string): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    const res = await bearer(admin).apply(request(t.url).get(path));
    if (res.status === 200 && res.body.data.state === state) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${path} never ${state}`);
}

/**
 * A backfill as the route would leave it, built by hand: its row (`state` running, with the
 * counters and cursor given) and its job in the ticket-backfill queue (`delay` ms later).
 */
async function queueBackfill(
  row: {
    mode: 'link_only' | 'create';
    total?: number;
    done?: number;
    skipped?: number;
    cursor?: string;
  },
  selection: { statuses: string[]; severities: string[] },
  delay = 0,
): Promise<string> {
  const id = `tbf-${randomUUID()}`;
  await withDb(t, (db) =>
    db.query(
      `INSERT INTO ticket_backfills (id, project_id, mode, state, total, done, skipped, cursor)
       VALUES ($1, $2, $3, 'running', $4, $5, $6, $7)`,
      [
        id,
        product.project_id,
        row.mode,
        row.total ?? 0,
        row.done ?? 0,
        row.skipped ?? 0,
        row.cursor ?? null,
      ],
    ),
  );
  const connection = createRedisConnection(t.config.redisUrl, {
    name: 'ticket-backfill-test',
    role: 'producer',
  });
  const queue = new Queue('ticket-backfill', { connection, prefix: t.config.reports.queuePrefix });
  try {
    await queue.add(
      'ticket-backfill',
      { backfillId: id, projectId: product.project_id, mode: row.mode, ...selection },
      { jobId: id, delay },
    );
  } finally {
    await queue.close();
    connection.disconnect();
  }
  return id;
}

const ticketOf = (findingId: string) =>
  withDb(
    t,
    async (db) =>
      (
        await db.query(
          `SELECT t.task_key, t.origin FROM finding_tickets ft JOIN tickets t ON t.id = ft.ticket_id
            WHERE ft.finding_id = $1`,
          [findingId],
        )
      ).rows[0] as { task_key: string; origin: string } | undefined,
  );

const labelled = (findingId: string, key: string) => ({
  id: `${90000 + jira.issues.length}`,
  key,
  project: 'SEC',
  summary: 'made from the creation form',
  description: '',
  labels: [`findsvc-${findingId}`],
  status: { name: 'To Do', category: 'new' as const },
  comments: [],
});

describe('Tickets - history backfill', () => {
  let ids: string[];
  let firstJob = '';

  beforeAll(async () => {
    ids = await seedFindings(t, product, [
      { title: 'B0', severity: 'HIGH' },
      { title: 'B1', severity: 'HIGH' },
      { title: 'B2', severity: 'LOW' },
      { title: 'B3', severity: 'HIGH', status: 'fixed' },
    ]);
  });

  it('refuses bad input (400), a member without manage_notifications (403), a service-less project (404)', async () => {
    const bad = await start({ mode: 'everything' }).expect(400);
    expect(bad.body.code).toBe('validation_failed');
    await start({ statuses: ['not-a-status'] }).expect(400);
    await start({ min_severity: 'SEVERE' }).expect(400);
    const denied = await start({}, analyst).expect(403);
    expect(denied.body.code).toBe('access_denied');
    await bearer(admin)
      .apply(
        request(t.url)
          .post(`/api/v1/projects/00000000-0000-4000-8000-000000000000/tickets/backfill`)
          .send({}),
      )
      .expect(404);
  });

  it('link_only: links the tasks carrying a finding’s label, skips the rest; one running per project (409)', async () => {
    jira.issues.push(labelled(ids[1] as string, 'SEC-501'));
    const issuesBefore = jira.issues.length;
    const res = await start({}).expect(202);
    const jobId = res.body.data.job_id as string;
    firstJob = jobId;
    expect(jobId).toMatch(/^tbf-[0-9a-f-]{36}$/);
    // No worker yet: the row is running, a second start is refused.
    const again = await start({ mode: 'create' }).expect(409);
    expect(again.body.code).toBe('ticket_backfill_running');
    worker = await startLifecycleWorker(t, NEVER, runnerEnv);
    const done = await finished(jobId);
    // Open group, every severity: B0, B1, B2 (B3 is fixed).
    expect(done).toMatchObject({
      state: 'completed',
      mode: 'link_only',
      total: 3,
      done: 3,
      linked: 1,
      created: 0,
      skipped: 2,
      failed: 0,
    });
    expect(await ticketOf(ids[1] as string)).toEqual({ task_key: 'SEC-501', origin: 'backfill' });
    expect(await ticketOf(ids[0] as string)).toBeUndefined();
    expect(jira.issues).toHaveLength(issuesBefore);
  });

  it('the jobs API shows a backfill with its counters (project admins; a completed one is neither retried nor cancelled)', async () => {
    const path = `/api/v1/jobs/${firstJob}`;
    let job: Record<string, unknown> = {};
    for (let i = 0; i < 100 && job['state'] !== 'completed'; i += 1) {
      job = (await bearer(admin).apply(request(t.url).get(path)).expect(200)).body.data;
      if (job['state'] !== 'completed') await new Promise((r) => setTimeout(r, 200));
    }
    expect(job).toMatchObject({
      id: firstJob,
      queue: 'ticket-backfill',
      kind: 'ticket-backfill',
      state: 'completed',
      project_id: product.project_id,
      retryable: false,
      progress: { total: 3, done: 3, linked: 1, created: 0, skipped: 2, failed: 0 },
    });
    const list = await bearer(admin)
      .apply(request(t.url).get('/api/v1/jobs?queue=ticket-backfill&limit=100'))
      .expect(200);
    expect((list.body.data as Array<{ id: string }>).map((j) => j.id)).toContain(firstJob);
    // Not the ingestion queue's list, and not visible to a member who administers nothing.
    const ingestion = await bearer(admin)
      .apply(request(t.url).get('/api/v1/jobs?limit=100'))
      .expect(200);
    expect((ingestion.body.data as Array<{ id: string }>).map((j) => j.id)).not.toContain(firstJob);
    await bearer(analyst).apply(request(t.url).get(path)).expect(404);
    const retried = await bearer(admin)
      .apply(request(t.url).post(`${path}/retry`))
      .expect(422);
    expect(retried.body.code).toBe('job_not_retryable');
    const cancelled = await bearer(admin)
      .apply(request(t.url).post(`${path}/cancel`))
      .expect(422);
    expect(cancelled.body.code).toBe('job_not_cancellable');
  });

  it('create with min_severity: a task per finding at or above it still without one; the others stay', async () => {
    const issuesBefore = jira.issues.length;
    const res = await start({ mode: 'create', min_severity: 'HIGH' }).expect(202);
    const done = await finished(res.body.data.job_id as string);
    // B1 already has its ticket: only B0 is walked (B2 is LOW, B3 fixed).
    expect(done).toMatchObject({ state: 'completed', total: 1, created: 1, linked: 0, skipped: 0 });
    expect(jira.issues).toHaveLength(issuesBefore + 1);
    expect(jira.issues.at(-1)?.labels).toEqual([`findsvc-${ids[0]}`]);
    expect((await ticketOf(ids[0] as string))?.origin).toBe('backfill');
    expect(await ticketOf(ids[2] as string)).toBeUndefined();
    expect(await ticketOf(ids[3] as string)).toBeUndefined();
  });

  it('a tracker refusing the token three times in a row stops the backfill failed', async () => {
    const more = await seedFindings(
      t,
      product,
      Array.from({ length: 4 }, (_, i) => ({ title: `R${i}`, severity: 'MEDIUM' })),
    );
    jira.failWith = 401;
    try {
      const res = await start({ mode: 'create', min_severity: 'MEDIUM' }).expect(202);
      failedJob = res.body.data.job_id as string;
      const done = await finished(failedJob);
      expect(done).toMatchObject({ state: 'failed', failed: 3, done: 3, total: 4 });
      expect(done['finished_at']).not.toBeNull();
    } finally {
      jira.failWith = undefined;
    }
    // The failed job is retryable; retried, it resumes after its cursor: only the fourth.
    const jobPath = `/api/v1/jobs/${failedJob}`;
    await waitForJob(jobPath, 'failed');
    expect(
      (await bearer(admin).apply(request(t.url).get(jobPath)).expect(200)).body.data,
    ).toMatchObject({
      state: 'failed',
      retryable: true,
    });
    await bearer(analyst)
      .apply(request(t.url).post(`${jobPath}/retry`))
      .expect(404);
    await bearer(admin)
      .apply(request(t.url).post(`${jobPath}/retry`))
      .expect(200);
    expect(await finished(failedJob)).toMatchObject({
      state: 'completed',
      total: 4,
      done: 4,
      failed: 3,
      created: 1,
    });
    // A new backfill walks what is still without a ticket: the three the tracker refused.
    const res = await start({ mode: 'link_only', min_severity: 'MEDIUM' }).expect(202);
    expect(await finished(res.body.data.job_id as string)).toMatchObject({
      state: 'completed',
      total: more.length - 1,
      skipped: more.length - 1,
    });
  });

  it('cancel stops a queued backfill before it walks anything; retry resumes it; one running per project', async () => {
    const ours = await seedFindings(
      t,
      product,
      Array.from({ length: 2 }, (_, i) => ({ title: `Q${i}`, severity: 'LOW' })),
    );
    // Queued with a delay, so the cancellation finds it before any worker does.
    const issuesBefore = jira.issues.length;
    const id = await queueBackfill(
      { mode: 'create' },
      { statuses: ['new'], severities: ['LOW'] },
      1500,
    );
    const jobPath = `/api/v1/jobs/${id}`;
    // Project admins only, as the other job routes.
    await bearer(analyst)
      .apply(request(t.url).post(`${jobPath}/cancel`))
      .expect(404);
    const cancelled = await bearer(admin)
      .apply(request(t.url).post(`${jobPath}/cancel`))
      .expect(200);
    expect(cancelled.body.data).toMatchObject({ id, cancel_requested: true });
    expect(await row(id)).toMatchObject({ state: 'cancelled', done: 0 });
    // Cancelled twice: nothing left to cancel.
    await bearer(admin)
      .apply(request(t.url).post(`${jobPath}/cancel`))
      .expect(422);
    // The job starts, finds its row cancelled and ends: nothing was walked.
    await waitForJob(jobPath, 'completed');
    expect(jira.issues).toHaveLength(issuesBefore);
    expect(
      (await bearer(admin).apply(request(t.url).get(jobPath)).expect(200)).body.data,
    ).toMatchObject({
      retryable: true,
    });

    // Retry while another backfill of the project runs: 409, and the row stays cancelled.
    const other = `tbf-${randomUUID()}`;
    await withDb(t, (db) =>
      db.query(
        `INSERT INTO ticket_backfills (id, project_id, mode, state) VALUES ($1, $2, 'link_only', 'running')`,
        [other, product.project_id],
      ),
    );
    const busy = await bearer(admin)
      .apply(request(t.url).post(`${jobPath}/retry`))
      .expect(409);
    expect(busy.body.code).toBe('ticket_backfill_running');
    expect((await row(id))['state']).toBe('cancelled');
    await withDb(t, (db) => db.query(`DELETE FROM ticket_backfills WHERE id = $1`, [other]));

    await bearer(admin)
      .apply(request(t.url).post(`${jobPath}/retry`))
      .expect(200);
    // Every LOW finding of the project still without a task: ours and any earlier test's.
    const done = await finished(id);
    expect(done).toMatchObject({ state: 'completed', failed: 0 });
    expect(Number(done['total'])).toBeGreaterThanOrEqual(2);
    expect(done['created']).toBe(done['total']);
    expect(jira.issues).toHaveLength(issuesBefore + Number(done['total']));
    for (const findingId of ours) expect((await ticketOf(findingId))?.origin).toBe('backfill');
  });

  it('resumes after the cursor of its row (a restarted or retried job)', async () => {
    const ours = (
      await seedFindings(
        t,
        product,
        Array.from({ length: 3 }, (_, i) => ({ title: `C${i}`, severity: 'CRITICAL' })),
      )
    ).sort();
    for (const [i, id] of ours.entries()) jira.issues.push(labelled(id, `SEC-60${i}`));
    // A backfill that had walked the first finding when its worker died: its row says so.
    const id = await queueBackfill(
      { mode: 'link_only', total: 3, done: 1, skipped: 1, cursor: ours[0] },
      { statuses: ['new'], severities: ['CRITICAL'] },
    );
    expect(await finished(id)).toMatchObject({
      state: 'completed',
      total: 3,
      done: 3,
      linked: 2,
      skipped: 1,
    });
    expect(await ticketOf(ours[0] as string)).toBeUndefined();
    expect((await ticketOf(ours[1] as string))?.task_key).toBe('SEC-601');
    expect((await ticketOf(ours[2] as string))?.task_key).toBe('SEC-602');
  });
});
