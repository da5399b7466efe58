import { DataSource } from 'typeorm';
import { ReportCleanupService } from '../../src/modules/cleanup/report-cleanup.service';
import { freshProduct } from '../support/findings-seed';
import { startIngestion, type IngestionStack } from '../support/ingestion-env';
import { seedDelivery } from './route-seed';
import { seedChannelPlugin } from './support';

/**
 * Retention in the hourly cleanup: delivered and cancelled deliveries go after
 * NOTIFICATION_RETENTION_DELIVERED_DAYS (7), failed ones after ..._FAILED_DAYS (30), then the
 * notifications with no delivery left; pending ones and newer ones stay.
 */
let stack: IngestionStack;

beforeAll(async () => {
  stack = await startIngestion({ worker: true });
}, 120_000);
afterAll(() => stack.close());

describe('Notifications - retention in the hourly cleanup', () => {
  it('deletes finished deliveries past their retention and the notifications left empty', async () => {
    const db = stack.t.app.get(DataSource);
    const product = await freshProduct(stack.t, stack.admin);
    const channel = await seedChannelPlugin(stack.t, 'retention-channel');
    const age = async (id: string, days: number) =>
      db.query(
        `UPDATE notification_deliveries SET updated_at = now() - make_interval(days => $2) WHERE id = $1`,
        [id, days],
      );
    const ageNotification = async (id: string, days: number) =>
      db.query(
        `UPDATE notifications SET sealed_at = now() - make_interval(days => $2) WHERE id = $1`,
        [id, days],
      );
    const oldDelivered = await seedDelivery(stack.t, product.project_id, channel, 'delivered');
    const oldCancelled = await seedDelivery(stack.t, product.project_id, channel, 'cancelled');
    const failed10 = await seedDelivery(stack.t, product.project_id, channel, 'failed');
    const failed40 = await seedDelivery(stack.t, product.project_id, channel, 'failed');
    const oldPending = await seedDelivery(stack.t, product.project_id, channel, 'pending');
    const fresh = await seedDelivery(stack.t, product.project_id, channel, 'delivered');
    for (const d of [oldDelivered, oldCancelled, oldPending]) await age(d.deliveryId, 8);
    await age(failed10.deliveryId, 10);
    await age(failed40.deliveryId, 40);
    for (const d of [oldDelivered, oldCancelled, failed10, failed40, oldPending, fresh]) {
      await ageNotification(d.notificationId, 41);
    }
    const cleanup = stack.worker!.get(ReportCleanupService);
    const dry = await cleanup.run({ ...stack.t.config.cleanup, dryRun: true });
    expect(dry).toMatchObject({ notificationDeliveries: 3, notifications: 3 });
    const real = await cleanup.run();
    expect(real).toMatchObject({ notificationDeliveries: 3, notifications: 3 });
    const left = (await db.query(
      `SELECT id::text AS id FROM notification_deliveries WHERE project_id = $1 ORDER BY id`,
      [product.project_id],
    )) as { id: string }[];
    expect(left.map((r) => r.id).sort()).toEqual(
      [failed10.deliveryId, oldPending.deliveryId, fresh.deliveryId].sort(),
    );
    const notifications = (await db.query(
      `SELECT id::text AS id FROM notifications WHERE project_id = $1`,
      [product.project_id],
    )) as { id: string }[];
    expect(notifications.map((r) => r.id).sort()).toEqual(
      [failed10.notificationId, oldPending.notificationId, fresh.notificationId].sort(),
    );
    expect(await cleanup.run()).toMatchObject({ notificationDeliveries: 0, notifications: 0 });
  });
});
