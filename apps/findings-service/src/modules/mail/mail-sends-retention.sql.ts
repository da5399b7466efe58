/** How long a mail_sends row is kept (the runner's delivered-key memory is 24 h; retries end sooner). */
export const MAIL_SENDS_RETENTION_DAYS = 7;

/**
 * The cleanup's delete of old `mail_sends` rows, a statement of the mail module (the table's
 * owner) that the caller runs: `manager.query(sql, values)`. Deletes at most `limit` rows
 * created before `cutoff`, skipping rows another transaction holds; the one row read back is
 * `n`, how many went.
 */
export function deleteDueMailSendsSql(
  cutoff: Date,
  limit: number,
): { sql: string; values: unknown[] } {
  return {
    sql: `WITH due AS (
         SELECT event_id FROM mail_sends WHERE created_at < $1
          LIMIT $2 FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM mail_sends m USING due WHERE m.event_id = due.event_id RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
    values: [cutoff, limit],
  };
}
