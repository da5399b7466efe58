/**
 * The cleanup's delete of old refresh tokens, a statement of the users module (the owner of
 * `refresh_tokens`) that the caller runs: `manager.query(sql, values)`. Deletes at most `limit`
 * tokens used, revoked or expired before `cutoff`, skipping rows another transaction holds; the one
 * row read back is `n`, how many went.
 */
export function deleteDueRefreshTokensSql(
  cutoff: Date,
  limit: number,
): { sql: string; values: unknown[] } {
  return {
    sql: `WITH due AS (
         SELECT id FROM refresh_tokens
          WHERE used_at < $1 OR revoked_at < $1 OR expires_at < $1
          LIMIT $2 FOR UPDATE SKIP LOCKED
       ), gone AS (
         DELETE FROM refresh_tokens t USING due WHERE t.id = due.id RETURNING 1
       )
       SELECT count(*)::int AS n FROM gone`,
    values: [cutoff, limit],
  };
}
