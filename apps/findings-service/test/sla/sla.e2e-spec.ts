import type { INestApplicationContext } from '@nestjs/common';
import { createRedisConnection } from '@platform/queue';
import { uniqueQueuePrefix } from '@platform/testing';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/app/clock';
import {
  NOTIFICATION_QUEUE,
  SLA_DEADLINE_NOTIFICATION,
} from '../../src/modules/notification-queue/sla-deadline-notification.job';
import { SlaCheckService } from '../../src/modules/sla/sla-check.service';
import { Auth, bearer } from '../support/catalog';
import {
  freshMember,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
  uuid,
} from '../support/findings-seed';
import { NEVER, startLifecycleWorker } from '../support/lifecycle-worker';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let worker: INestApplicationContext;
let connection: Redis;
let notifications: Queue;
let clockAt: Date;

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = new Date('2031-05-05T08:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();

beforeAll(async () => {
  t = await startTestApp({ QUEUE_PREFIX: uniqueQueuePrefix() });
  admin = await loginAdmin(t);
  worker = await startLifecycleWorker(t, NEVER);
  clockAt = T0;
  for (const context of [t.app, worker]) {
    jest.spyOn(context.get(Clock), 'now').mockImplementation(() => new Date(clockAt.getTime()));
  }
  connection = createRedisConnection(t.config.redisUrl, { name: 'sla-test', role: 'producer' });
  notifications = new Queue(NOTIFICATION_QUEUE, {
    connection,
    prefix: t.config.reports.queuePrefix,
  });
});
afterAll(async () => {
  jest.restoreAllMocks();
  await notifications.close();
  connection.disconnect();
  await worker.close();
  await t.close();
});

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;
const patch = (id: string, body: Record<string, unknown>) =>
  bearer(admin)
    .apply(request(t.url).patch(`/api/v1/findings/${id}`).send(body))
    .expect(200);
const check = () => worker.get(SlaCheckService).run();
const list = (auth: Auth, query: Record<string, string | number> = {}) =>
  auth.apply(request(t.url).get('/api/v1/sla/violations').query(query));
const violationsOf = (ids: string[]) =>
  sql(
    `SELECT id, finding_id, kind, due_at, opened_at, notified_at, resolved_at, resolution,
            resolved_by_type, resolved_by_label
       FROM sla_violations WHERE finding_id = ANY($1::uuid[]) ORDER BY opened_at, kind`,
    [ids],
  );
const jobsOf = async (projectId: string) =>
  (await notifications.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']))
    .filter((j) => (j.data as { projectId: string }).projectId === projectId)
    .map((j) => ({ name: j.name, data: SLA_DEADLINE_NOTIFICATION.parse(j.data) }));

/** Findings taken into work at `startedAt` (the API's clock), in their own product. */
async function inWork(
  product: Product,
  rows: { severity: string; sla_days: number }[],
  startedAt: number,
): Promise<string[]> {
  const ids = await seedFindings(
    t,
    product,
    rows.map((r) => ({ ...r, status: 'confirmed' })),
  );
  clockAt = at(startedAt);
  for (const id of ids) await patch(id, { status: 'in_progress' });
  return ids;
}

describe('SLA - the hourly deadline check (worker, injected clock)', () => {
  it('opens approaching and breached violations once, logs them, and queues one job per project and kind', async () => {
    const product = await freshProduct(t, admin);
    // MEDIUM 30 d (lead 72 h), HIGH 14 d, CRITICAL 7 d started later (lead 24 h), LOW paused.
    const [medium, high] = await inWork(
      product,
      [
        { severity: 'MEDIUM', sla_days: 30 },
        { severity: 'HIGH', sla_days: 14 },
      ],
      0,
    );
    const [critical] = await inWork(product, [{ severity: 'CRITICAL', sla_days: 7 }], 27 * DAY);
    const [low] = await inWork(product, [{ severity: 'LOW', sla_days: 1 }], 0);
    clockAt = at(1 * HOUR);
    await patch(low, { status: 'needs_review' }); // paused: its deadline (1 d) is frozen

    clockAt = at(28 * DAY); // 2 days before medium's deadline, 14 days after high's
    // The check is global: assertions below look at this test's own findings and project.
    await check();
    const rows = await violationsOf([medium, high, critical, low]);
    expect(rows).toEqual([
      expect.objectContaining({ finding_id: medium, kind: 'approaching', due_at: at(30 * DAY) }),
      expect.objectContaining({ finding_id: high, kind: 'breached', due_at: at(14 * DAY) }),
    ]);
    expect(rows.every((r) => (r['notified_at'] as Date).getTime() === at(28 * DAY).getTime())).toBe(
      true,
    );
    const log = await sql(
      `SELECT finding_id, actor_type, actor_label, action, to_value FROM finding_actions
        WHERE action LIKE 'sla_%' AND finding_id = ANY($1::uuid[]) ORDER BY action`,
      [[medium, high]],
    );
    expect(log).toEqual([
      expect.objectContaining({
        finding_id: medium,
        actor_type: 'system',
        actor_label: 'sla-check',
        action: 'sla_approaching',
        to_value: expect.objectContaining({ sla_due_at: iso(30 * DAY) }),
      }),
      expect.objectContaining({ finding_id: high, action: 'sla_breached', actor_type: 'system' }),
    ]);
    const jobs = await jobsOf(product.project_id);
    expect(
      jobs.map((j) => [j.name, j.data.kind, j.data.violations.map((v) => v.findingId)]).sort(),
    ).toEqual([
      ['sla-deadline', 'approaching', [medium]],
      ['sla-deadline', 'breached', [high]],
    ]);
    expect(jobs.find((j) => j.data.kind === 'breached')?.data).toMatchObject({
      projectId: product.project_id,
      checkedAt: iso(28 * DAY),
      violations: [
        { findingId: high, productId: product.id, severity: 'HIGH', dueAt: iso(14 * DAY) },
      ],
    });

    // The same check again: nothing new, no second job.
    clockAt = at(28 * DAY + HOUR);
    await check();
    expect(await violationsOf([medium, high, critical, low])).toHaveLength(2);
    expect(await jobsOf(product.project_id)).toHaveLength(2);

    // Medium passes its deadline: a breached violation supersedes the approaching one.
    clockAt = at(30 * DAY + 1);
    await check();
    expect(await jobsOf(product.project_id)).toHaveLength(3);
    const medRows = await violationsOf([medium]);
    expect(medRows.map((r) => [r['kind'], r['resolution']])).toEqual([
      ['approaching', 'breached'],
      ['breached', null],
    ]);
  });

  it('a closing state closes the open violations; a pause keeps them; a moved deadline resolves them', async () => {
    const product = await freshProduct(t, admin);
    const [closing, pausing] = await inWork(
      product,
      [
        { severity: 'HIGH', sla_days: 14 },
        { severity: 'HIGH', sla_days: 14 },
      ],
      0,
    );
    clockAt = at(15 * DAY);
    await check();
    expect((await violationsOf([closing, pausing])).map((r) => r['kind'])).toEqual([
      'breached',
      'breached',
    ]);

    clockAt = at(16 * DAY);
    await patch(closing, { status: 'fixed' });
    expect(await violationsOf([closing])).toEqual([
      expect.objectContaining({
        kind: 'breached',
        resolved_at: at(16 * DAY),
        resolution: 'finding_closed',
        resolved_by_type: 'user',
      }),
    ]);

    // A pause keeps the violation (the deadline is frozen until the return to work)...
    await patch(pausing, {
      status: 'waiting',
      waiting_reason: 'vendor',
      waiting_until: iso(40 * DAY),
    });
    clockAt = at(36 * DAY);
    await check();
    expect(await violationsOf([pausing])).toEqual([
      expect.objectContaining({ kind: 'breached', resolved_at: null }),
    ]);
    // ...and the return shifts it by the 20 idle days: day 14 + 20 = day 34, still breached.
    await patch(pausing, { status: 'in_progress' });
    await check();
    expect(await violationsOf([pausing])).toEqual([
      expect.objectContaining({ kind: 'breached', due_at: at(14 * DAY), resolved_at: null }),
    ]);
    const [finding] = await sql(`SELECT sla_due_at FROM findings WHERE id = $1`, [pausing]);
    expect(finding).toEqual({ sla_due_at: at(34 * DAY) });

    // More days for HIGH: deadline = start + 60 days + 20 idle days = day 80; the check
    // resolves the violation whose condition no longer holds and opens nothing.
    await bearer(admin)
      .apply(
        request(t.url)
          .put(`/api/v1/projects/${product.project_id}/settings`)
          .send({ remediation_days: { HIGH: 60 } }),
      )
      .expect(200);
    clockAt = at(37 * DAY);
    await check();
    expect(await violationsOf([pausing])).toEqual([
      expect.objectContaining({
        kind: 'breached',
        resolved_at: at(37 * DAY),
        resolution: 'deadline_moved',
        resolved_by_type: 'system',
        resolved_by_label: 'sla-check',
      }),
    ]);
    const [moved] = await sql(`SELECT sla_due_at FROM findings WHERE id = $1`, [pausing]);
    expect(moved).toEqual({ sla_due_at: at(80 * DAY) });
  });
});

describe('SLA violations - /api/v1/sla/violations (GET), /{id}/resolve (POST)', () => {
  let product: Product;
  let ids: string[];

  beforeAll(async () => {
    product = await freshProduct(t, admin);
    ids = await inWork(
      product,
      [
        { severity: 'CRITICAL', sla_days: 7 },
        { severity: 'HIGH', sla_days: 14 },
        { severity: 'HIGH', sla_days: 14 },
        { severity: 'MEDIUM', sla_days: 30 },
      ],
      0,
    );
    clockAt = at(28 * DAY);
    await check();
  });

  it('lists open violations within visibility, with filters and keyset paging', async () => {
    const page = (await list(bearer(admin), { product_id: product.id }).expect(200)).body.data;
    expect(page.items).toHaveLength(4);
    expect(page.items[0]).toMatchObject({
      product_id: product.id,
      project_id: product.project_id,
      state: 'open',
      resolved_at: null,
      notified_at: iso(28 * DAY),
    });
    const kinds = page.items.map((v: { kind: string }) => v.kind).sort();
    expect(kinds).toEqual(['approaching', 'breached', 'breached', 'breached']);

    const high = (
      await list(bearer(admin), { product_id: product.id, severity: 'high', kind: 'breached' })
    ).body.data.items;
    expect(high.map((v: { finding_id: string }) => v.finding_id).sort()).toEqual(
      [ids[1], ids[2]].sort(),
    );

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await list(bearer(admin), {
        product_id: product.id,
        limit: 1,
        ...(cursor ? { cursor } : {}),
      }).expect(200);
      seen.push(...res.body.data.items.map((v: { id: string }) => v.id));
      cursor = res.body.data.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(page.items.map((v: { id: string }) => v.id));

    expect((await list(bearer(admin), { cursor: 'not-a-cursor' }).expect(400)).body.code).toBe(
      'sla_cursor_invalid',
    );
    expect((await list(bearer(admin), { severity: 'urgent' }).expect(400)).body.code).toBe(
      'validation_failed',
    );

    // Keys with read_findings see their scope; a grant elsewhere sees nothing of it.
    const reader = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'product', product },
    ]);
    expect((await list(reader).expect(200)).body.data.items).toHaveLength(4);
    const other = await freshProduct(t, admin);
    const elsewhere = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'product', product: other },
    ]);
    expect((await list(elsewhere, { product_id: product.id }).expect(200)).body.data.items).toEqual(
      [],
    );
  });

  it('resolves by hand (analyst/admin, user token), logs it, and the check does not reopen it', async () => {
    const [open] = (
      await list(bearer(admin), { product_id: product.id, severity: 'critical' }).expect(200)
    ).body.data.items as { id: string; finding_id: string }[];
    const resolve = (auth: Auth, id: string, body: Record<string, unknown> = {}) =>
      auth.apply(request(t.url).post(`/api/v1/sla/violations/${id}/resolve`).send(body));

    expect((await resolve(bearer(admin), uuid()).expect(404)).body.code).toBe(
      'sla_violation_not_found',
    );
    const viewer = await freshMember(t, admin, product.project_id, 'viewer');
    expect((await resolve(bearer(viewer), open.id).expect(403)).body.code).toBe(
      'permission_denied',
    );
    const other = await freshProduct(t, admin);
    const outsider = await freshMember(t, admin, other.project_id, 'analyst');
    expect((await resolve(bearer(outsider), open.id).expect(404)).body.code).toBe(
      'sla_violation_not_found',
    );
    const key = await keyWith(t, admin, [
      { permission: 'write_findings', level: 'global' },
      { permission: 'read_findings', level: 'global' },
    ]);
    await resolve(key, open.id).expect(403);

    const analyst = await freshMember(t, admin, product.project_id, 'analyst');
    clockAt = at(28 * DAY + HOUR);
    const done = (
      await resolve(bearer(analyst), open.id, { comment: ' accepted by the owner ' }).expect(200)
    ).body.data;
    expect(done).toMatchObject({
      id: open.id,
      state: 'resolved',
      resolution: 'manual',
      resolved_at: iso(28 * DAY + HOUR),
      resolved_by: { type: 'user', id: analyst.userId },
      comment: 'accepted by the owner',
    });
    expect((await resolve(bearer(analyst), open.id).expect(422)).body.code).toBe(
      'sla_violation_resolved',
    );
    const [entry] = await sql(
      `SELECT actor_type, actor_id, action, from_value, to_value FROM finding_actions
        WHERE finding_id = $1 AND action = 'sla_violation_resolved'`,
      [open.finding_id],
    );
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor_id: analyst.userId,
      from_value: { violation_id: open.id, kind: 'breached' },
      to_value: { resolution: 'manual', comment: 'accepted by the owner' },
    });

    clockAt = at(28 * DAY + 2 * HOUR);
    await check();
    const after = await violationsOf([open.finding_id]);
    expect(after).toHaveLength(1);
    expect(
      (await list(bearer(admin), { product_id: product.id, state: 'resolved' }).expect(200)).body
        .data.items,
    ).toEqual([expect.objectContaining({ id: open.id })]);
  });
});
