/**
 * The cleanup's deletes of finished deliveries and emptied notifications, statements of this
 * module (the tables' owner) that the cleanup runs: `manager.query(sql, values)`. Each deletes
 * at most `limit` rows, skipping rows another transaction holds; the one row read back is `n`.
 */

/** Delivered and cancelled deliveries last changed before `done`, failed ones before `failed`. */
export function deleteDueDeliveriesSql(
  done: Date,
  failed: Date,
  limit: number,
): { sql: string; values: unknown[] } {
  return {
    sql: `WITH due AS (
         SELECT id FROM notification_deliveries
          WHERE (state IN ('delivered', 'cancelled') AND updated_at < $1)
             OR (state = 'failed' AND updated_at < $2)
          LIMIT $3 FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM notification_deliveries d USING due WHERE d.id = due.id RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
    values: [done, failed, limit],
  };
}

/** Sealed notifications older than `cutoff` with no delivery left. */
export function deleteEmptyNotificationsSql(
  cutoff: Date,
  limit: number,
): { sql: string; values: unknown[] } {
  return {
    sql: `WITH due AS (
         SELECT n.id FROM notifications n
          WHERE n.state = 'sealed' AND n.sealed_at < $1
            AND NOT EXISTS (SELECT 1 FROM notification_deliveries d WHERE d.notification_id = n.id)
          LIMIT $2 FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM notifications x USING due WHERE x.id = due.id RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
    values: [cutoff, limit],
  };
}

/** What the dry run counts: deliveries, then notifications, due as above. */
export function countDueNotificationRowsSql(
  done: Date,
  failed: Date,
): { sql: string; values: unknown[] } {
  return {
    sql: `SELECT
        (SELECT count(*)::int FROM notification_deliveries
          WHERE (state IN ('delivered', 'cancelled') AND updated_at < $1)
             OR (state = 'failed' AND updated_at < $2)) AS deliveries,
        (SELECT count(*)::int FROM notifications n
          WHERE n.state = 'sealed' AND n.sealed_at < $1
            AND NOT EXISTS (SELECT 1 FROM notification_deliveries d
                             WHERE d.notification_id = n.id
                               AND NOT ((d.state IN ('delivered', 'cancelled') AND d.updated_at < $1)
                                     OR (d.state = 'failed' AND d.updated_at < $2)))) AS notifications`,
    values: [done, failed],
  };
}
