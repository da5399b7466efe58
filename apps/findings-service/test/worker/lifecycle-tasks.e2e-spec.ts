import type { INestApplicationContext } from '@nestjs/common';
import { uniqueQueuePrefix, waitFor } from '@platform/testing';
import { DataSource } from 'typeorm';
import { StateExpiryService } from '../../src/modules/findings/lifecycle/state-expiry.service';
import { SlaCheckService } from '../../src/modules/sla/sla-check.service';
import { freshProduct, seedFindings } from '../support/findings-seed';
import { startLifecycleWorker } from '../support/lifecycle-worker';
import { loginAdmin, Login } from '../support/sessions';
import { startTestApp, TestApp } from '../support/test-app';

const DAY = 86_400_000;
const PERIOD_MS = 100;

let t: TestApp;
let admin: Login;
const workers: INestApplicationContext[] = [];

beforeAll(async () => {
  t = await startTestApp({ QUEUE_PREFIX: uniqueQueuePrefix() });
  admin = await loginAdmin(t);
});
afterAll(async () => {
  jest.restoreAllMocks();
  await Promise.all(workers.map((w) => w.close()));
  await t.close();
});

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;
const days = (n: number) => new Date(Date.now() + n * DAY);

describe('Worker - the lifecycle periodic tasks under the leader lock', () => {
  it('two workers: risk_accepted and waiting past their date move to needs_review once, as automatic actions', async () => {
    const product = await freshProduct(t, admin);
    const [riskDue, riskLater, waitDue, waitLater, other] = await seedFindings(t, product, [
      { status: 'risk_accepted' },
      { status: 'risk_accepted' },
      { status: 'waiting' },
      { status: 'waiting' },
      { status: 'confirmed' },
    ]);
    await sql(
      `UPDATE findings SET risk_accepted_until = d.until, waiting_reason = d.reason,
              waiting_until = d.wait
         FROM (VALUES ($1::uuid, $6::timestamptz, NULL::text, NULL::timestamptz),
                      ($2::uuid, $7::timestamptz, NULL, NULL),
                      ($3::uuid, NULL, 'vendor patch', $6::timestamptz),
                      ($4::uuid, NULL, 'vendor patch', $7::timestamptz),
                      ($5::uuid, NULL, NULL, NULL)) AS d(id, until, reason, wait)
        WHERE findings.id = d.id`,
      [riskDue, riskLater, waitDue, waitLater, other, days(-1), days(5)],
    );

    const schedule = { stateExpiryEveryMs: PERIOD_MS, slaCheckEveryMs: PERIOD_MS };
    workers.push(await startLifecycleWorker(t, schedule), await startLifecycleWorker(t, schedule));
    const runs = workers.map((w) => ({
      expiry: jest.spyOn(w.get(StateExpiryService), 'expire'),
      check: jest.spyOn(w.get(SlaCheckService), 'run'),
    }));

    await waitFor(
      async () => {
        const rows = await sql(`SELECT status FROM findings WHERE id = ANY($1::uuid[])`, [
          [riskDue, waitDue],
        ]);
        expect(rows.map((r) => r['status'])).toEqual(['needs_review', 'needs_review']);
      },
      { what: 'both due findings in needs_review' },
    );
    // Let the leader run every task several more times: nothing moves twice.
    await waitFor(
      () =>
        expect(runs.reduce((n, r) => n + r.expiry.mock.calls.length, 0)).toBeGreaterThanOrEqual(10),
      { what: 'ten more expiry runs' },
    );
    const leading = runs.filter((r) => r.expiry.mock.calls.length > 0);
    expect(leading).toHaveLength(1);
    expect(leading[0].check.mock.calls.length).toBeGreaterThan(0);
    expect(runs.find((r) => r !== leading[0])?.check).not.toHaveBeenCalled();

    const rows = new Map(
      (
        await sql(
          `SELECT id, status, risk_accepted_until, waiting_reason, waiting_until
             FROM findings WHERE id = ANY($1::uuid[])`,
          [[riskDue, riskLater, waitDue, waitLater, other]],
        )
      ).map((r) => [r['id'], r]),
    );
    for (const due of [riskDue, waitDue]) {
      expect(rows.get(due)).toMatchObject({
        status: 'needs_review',
        risk_accepted_until: null,
        waiting_reason: null,
        waiting_until: null,
      });
    }
    expect(rows.get(riskLater)).toMatchObject({ status: 'risk_accepted' });
    expect(rows.get(waitLater)).toMatchObject({
      status: 'waiting',
      waiting_reason: 'vendor patch',
    });
    expect(rows.get(other)).toMatchObject({ status: 'confirmed' });

    const log = await sql(
      `SELECT finding_id, actor_type, actor_id, actor_label, action, from_value, to_value
         FROM finding_actions WHERE finding_id = ANY($1::uuid[]) ORDER BY finding_id`,
      [[riskDue, riskLater, waitDue, waitLater, other]],
    );
    expect(log).toHaveLength(2);
    expect(log.find((e) => e['finding_id'] === riskDue)).toMatchObject({
      actor_type: 'system',
      actor_id: null,
      actor_label: 'risk-acceptance-expiry',
      action: 'status_changed',
      from_value: { status: 'risk_accepted', risk_accepted_until: expect.any(String) },
      to_value: { status: 'needs_review' },
    });
    expect(log.find((e) => e['finding_id'] === waitDue)).toMatchObject({
      actor_type: 'system',
      actor_label: 'waiting-expiry',
      from_value: { status: 'waiting', waiting_reason: 'vendor patch' },
      to_value: { status: 'needs_review' },
    });
  }, 30_000);
});
