import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { waitFor } from '@platform/testing';
import { bearer } from '../support/catalog';
import { INGEST_REPORT } from '../../src/modules/report-queue/ingest-report.job';
import { ReportQueue } from '../../src/modules/report-queue/report-queue.provider';
import { ReportsRepository } from '../../src/modules/reports/reports.repository';
import { withDb } from '../support/findings-db';
import { Login } from '../support/sessions';
import { IngestionStack, startIngestion, startWorker } from '../support/ingestion-env';
import { uploadReport, waitForReport } from '../support/reports';
import { syntheticSarif } from '../support/synthetic-sarif';
import { TestApp } from '../support/test-app';
import { freshMember, freshProduct } from '../support/findings-seed';

let t: TestApp;
let admin: Login;
let stack: IngestionStack;
let worker: INestApplicationContext | undefined;

beforeAll(async () => {
  stack = await startIngestion();
  ({ t, admin } = stack);
});
afterAll(async () => {
  await worker?.close();
  await stack.close();
});

const get = (path: string, who: Login = admin) =>
  request(t.url).get(path).set('Authorization', `Bearer ${who.token}`);
const post = (path: string, who: Login = admin) =>
  request(t.url).post(path).set('Authorization', `Bearer ${who.token}`);

describe('Jobs - /api/v1/jobs (GET), /api/v1/jobs/stats (GET), /api/v1/jobs/{id} (GET)', () => {
  it('lists queued ingestion jobs by state and report, counts them, and scopes project admins', async () => {
    const product = await freshProduct(t, admin);
    const reportId = await uploadReport(t, bearer(admin), product.id, syntheticSarif(10));
    const job = await get(`/api/v1/jobs/${reportId}`).expect(200);
    expect(job.body.data).toMatchObject({
      id: reportId,
      queue: 'report-ingestion',
      kind: 'ingest-report',
      state: 'waiting',
      report_id: reportId,
      project_id: product.project_id,
    });
    const list = await get(`/api/v1/jobs?state=waiting&report_id=${reportId}`).expect(200);
    expect(list.body.data.map((j: { id: string }) => j.id)).toEqual([reportId]);
    expect((await get('/api/v1/jobs?state=completed').expect(200)).body.data).toEqual([]);
    const stats = await get('/api/v1/jobs/stats').expect(200);
    expect(stats.body.data.waiting).toBeGreaterThanOrEqual(1);

    const lead = await freshMember(t, admin, product.project_id, 'admin');
    const analyst = await freshMember(t, admin, product.project_id, 'analyst');
    await get(`/api/v1/jobs/${reportId}`, lead).expect(200);
    expect(
      (await get('/api/v1/jobs', lead).expect(200)).body.data.map((j: { id: string }) => j.id),
    ).toContain(reportId);
    await get(`/api/v1/jobs/${reportId}`, analyst).expect(404);
    expect((await get('/api/v1/jobs', analyst).expect(200)).body.data).toEqual([]);
    await request(t.url).get('/api/v1/jobs').set('X-API-Key', 'sa_00000000_x').expect(401);
  });
});

describe('Jobs of a project administrator - exact lists behind other projects’ jobs', () => {
  it('lists and counts an older job behind 2 001 newer jobs of other projects', async () => {
    const product = await freshProduct(t, admin);
    const own = await uploadReport(t, bearer(admin), product.id, syntheticSarif(3));
    const lead = await freshMember(t, admin, product.project_id, 'admin');
    const queue = t.app.get(ReportQueue).queue;
    const others = Array.from({ length: 2_001 }, () => {
      const id = randomUUID();
      return {
        name: INGEST_REPORT.name,
        data: { reportId: id, productId: randomUUID(), projectId: randomUUID() },
        opts: { jobId: id },
      };
    });
    await queue.addBulk(others);
    try {
      const mine = await get('/api/v1/jobs?state=waiting&limit=10', lead).expect(200);
      expect(mine.body.data.map((j: { id: string }) => j.id)).toEqual([own]);
      expect((await get('/api/v1/jobs?limit=10&offset=1', lead).expect(200)).body.data).toEqual([]);
      const stats = await get('/api/v1/jobs/stats', lead).expect(200);
      expect(stats.body.data).toMatchObject({ waiting: 1, active: 0, completed: 0 });

      const newest = await get('/api/v1/jobs?state=waiting&limit=5').expect(200);
      expect(newest.body.data.map((j: { id: string }) => j.id)).not.toContain(own);
    } finally {
      await queue.drain();
    }
  });
});

describe('Reports walked for a project administrator’s jobs', () => {
  it('skips reports finished longer ago than the queue keeps jobs', async () => {
    const product = await freshProduct(t, admin);
    const ids = await withDb(t, async (db) => {
      const insert = async (status: string, finishedDaysAgo: number | null) => {
        const res = await db.query(
          `INSERT INTO reports (id, product_id, project_id, file_name, storage_key, status,
             finished_at, uploaded_by_kind, uploaded_by_id)
           SELECT gen_random_uuid(), $1, $2, 'r.sarif', 'r', $3,
             CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(days => $4::int) END,
             'user', id FROM users ORDER BY created_at LIMIT 1
           RETURNING id`,
          [product.id, product.project_id, status, finishedDaysAgo],
        );
        return (res.rows[0] as { id: string }).id;
      };
      return {
        pending: await insert('pending', null),
        recent: await insert('completed', 1),
        old: await insert('failed', 40),
      };
    });
    const since = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    const walked = await t.app
      .get(ReportsRepository)
      .newestInProjects([product.project_id], since, undefined, 10);

    expect(walked.map((r) => r.id).sort()).toEqual([ids.pending, ids.recent].sort());
  });
});

describe('Cancel and retry jobs - /api/v1/jobs/{id}/cancel, /api/v1/jobs/{id}/retry (POST)', () => {
  it('cancels a queued job (report failed as cancelled) and retries it to completion', async () => {
    const product = await freshProduct(t, admin);
    const reportId = await uploadReport(t, bearer(admin), product.id, syntheticSarif(50));
    const cancelled = await post(`/api/v1/jobs/${reportId}/cancel`).expect(200);
    expect(cancelled.body.data.cancel_requested).toBe(true);
    const report = await waitForReport(t, bearer(admin), reportId);
    expect(report).toMatchObject({ status: 'failed', failure_code: 'cancelled' });
    await post(`/api/v1/jobs/${reportId}/retry`).expect(404); // removed from the queue
  });

  it('stops a running job before its next write; retry resumes and completes', async () => {
    worker = await startWorker(t, stack.env.vars);
    const product = await freshProduct(t, admin);
    const total = 60_000;
    const reportId = await uploadReport(t, bearer(admin), product.id, syntheticSarif(total));
    const batches = () =>
      withDb(t, async (db) => {
        const res = await db.query('SELECT processed_batches FROM reports WHERE id = $1', [
          reportId,
        ]);
        return (res.rows[0] as { processed_batches: number }).processed_batches;
      });
    await waitFor(async () => expect(await batches()).toBeGreaterThanOrEqual(1), {
      timeoutMs: 60_000,
      intervalMs: 10,
    });
    await post(`/api/v1/jobs/${reportId}/cancel`).expect(200);
    const failed = await waitForReport(t, bearer(admin), reportId);
    expect(failed).toMatchObject({ status: 'failed', failure_code: 'cancelled' });
    expect(failed.counts.results).toBeLessThan(total);
    const job = await get(`/api/v1/jobs/${reportId}`).expect(200);
    expect(job.body.data).toMatchObject({
      state: 'failed',
      failure_code: 'cancelled',
      report_status: 'failed',
      retryable: true,
    });
    await post(`/api/v1/jobs/${reportId}/cancel`).expect(422);

    await post(`/api/v1/jobs/${reportId}/retry`).expect(200);
    const done = await waitForReport(t, bearer(admin), reportId, 60_000);
    expect(done).toMatchObject({ status: 'completed', counts: { new: total, results: total } });
    await post(`/api/v1/jobs/${reportId}/retry`).expect(422);
  }, 90_000);
});
