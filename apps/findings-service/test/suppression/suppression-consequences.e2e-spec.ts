import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { NotificationFeedRepository } from '../../src/modules/notifications/notification-feed.repository';
import { SlaCheckRepository } from '../../src/modules/sla/sla-check.repository';
import { bearer } from '../support/catalog';
import { freshProduct, seedFindings, type Product } from '../support/findings-seed';
import { NEVER, startLifecycleWorker } from '../support/lifecycle-worker';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * What suppression keeps a finding out of (docs/findings-service/suppression.md): the hourly
 * SLA check opens no violation for it, and the notification feed does not name it. A second
 * finding, alike but not suppressed, is the control.
 */
let t: TestApp;
let admin: Login;
let worker: INestApplicationContext;
let product: Product;
let suppressed: string;
let control: string;

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  worker = await startLifecycleWorker(t, NEVER);
  product = await freshProduct(t, admin);
  [suppressed, control] = (await seedFindings(t, product, [
    { severity: 'HIGH', status: 'in_progress', sla_days: 1, rule_id: 'NOISY' },
    { severity: 'HIGH', status: 'in_progress', sla_days: 1, rule_id: 'REAL' },
  ])) as [string, string];
  // Both clocks started 10 days ago: both deadlines are long past.
  await sql(
    `UPDATE findings SET sla_started_at = now() - interval '10 days',
       sla_due_at = now() - interval '9 days' WHERE id = ANY($1::uuid[])`,
    [[suppressed, control]],
  );
  const rule = await bearer(admin)
    .apply(
      request(t.url)
        .post(`/api/v1/projects/${product.project_id}/suppression-rules`)
        .send({ name: 'noise', query: 'rule:NOISY' }),
    )
    .expect(201);
  // The run's statement, as the worker's job would issue it (the job itself: suppression.e2e).
  await sql(`UPDATE findings SET suppression_rule_id = $2, suppressed_at = now() WHERE id = $1`, [
    suppressed,
    (rule.body as { data: { id: string } }).data.id,
  ]);
}, 120_000);
afterAll(async () => {
  await worker?.close();
  await t?.close();
});

describe('suppression - deadlines and notifications', () => {
  it('the SLA check opens a violation for the control only', async () => {
    await worker.get(SlaCheckRepository).open(new Date());
    const rows = await sql(
      `SELECT finding_id::text AS finding_id, kind FROM sla_violations
        WHERE finding_id = ANY($1::uuid[])`,
      [[suppressed, control]],
    );
    expect(rows).toEqual([{ finding_id: control, kind: 'breached' }]);
  });

  it('the notification feed reads the control only', async () => {
    const found = await t.app
      .get(DataSource)
      .transaction((manager) =>
        worker.get(NotificationFeedRepository).findings(manager, [suppressed, control]),
      );
    expect([...found.keys()]).toEqual([control]);
  });
});
