import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TestApp } from '../support/test-app';

/** A sealed notification of the project with one delivery to `pluginId` in `state`. */
export async function seedDelivery(
  t: TestApp,
  projectId: string,
  pluginId: string,
  state: 'pending' | 'delivering' | 'delivered' | 'failed' | 'cancelled',
  error: { code: string; message: string } | null = null,
): Promise<{ notificationId: string; deliveryId: string }> {
  const db = t.app.get(DataSource);
  const notificationId = randomUUID();
  const deliveryId = randomUUID();
  await db.query(
    `INSERT INTO notifications (id, project_id, kind, state, counts, items, finding_count,
            opened_at, last_added_at, sealed_at)
     VALUES ($1, $2, 'new_findings', 'sealed', '{"HIGH": 1}', '[]', 1, now(), now(), now())`,
    [notificationId, projectId],
  );
  await db.query(
    `INSERT INTO notification_deliveries (id, notification_id, project_id, installed_plugin_id,
            idempotency_key, threshold, state, attempts, next_attempt_at, last_error_code,
            last_error_message, created_at, updated_at, delivered_at)
     VALUES ($1, $2, $3, $4, $5, '{"min_severity":"INFO","notify_on_close":false,"fixed_min_severity":null}',
             $6::text, $7, now(), $8, $9, clock_timestamp(), clock_timestamp(),
             CASE WHEN $6::text = 'delivered' THEN now() END)`,
    [
      deliveryId,
      notificationId,
      projectId,
      pluginId,
      `ntf:${notificationId}:${pluginId}`,
      state,
      state === 'pending' ? 0 : 1,
      error?.code ?? null,
      error?.message ?? null,
    ],
  );
  return { notificationId, deliveryId };
}
