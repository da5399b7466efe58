/**
 * SQL of the action-log feed (action-feed.ts). Entries are ordered by the id of the transaction
 * that wrote them (`tx`), never by entry id: a long transaction commits entry ids below ones
 * already read, but its `tx` stays at or above the reader's snapshot horizon until it ends.
 */

/** Actions the feed carries (the partial index `ix_finding_actions_feed` covers exactly these). */
export const FEED_ACTIONS = ['created', 'status_changed'] as const;
export type FeedAction = (typeof FEED_ACTIONS)[number];

const ACTIONS_SQL = FEED_ACTIONS.map((a) => `'${a}'`).join(', ');
const COLUMNS = `a.id::text AS id, a.tx::text AS tx, a.finding_id, a.project_id, a.action,
  a.from_value, a.to_value, a.at`;

/** Locks the consumer's cursor row: one reader per consumer at a time. `$1` consumer. */
export const LOCK_CURSOR_SQL = `SELECT boundary::text AS boundary FROM action_feed_cursors
  WHERE consumer = $1 FOR UPDATE`;

/**
 * The snapshot horizon: every transaction with a lower id has ended (committed or aborted), so
 * the range below it is final.
 */
export const UPPER_SQL = `SELECT (pg_snapshot_xmin(pg_current_snapshot()))::text AS upper`;

/** A page: `$1` boundary (inclusive), `$2` upper (exclusive), `$3` page size. */
export const PAGE_SQL = `SELECT ${COLUMNS} FROM finding_actions a
  WHERE a.tx >= $1::bigint AND a.tx < $2::bigint AND a.action IN (${ACTIONS_SQL})
  ORDER BY a.tx, a.id LIMIT $3`;

/** The rest of one transaction a full page ended in: `$1` tx, `$2` last entry id read. */
export const REST_OF_TX_SQL = `SELECT ${COLUMNS} FROM finding_actions a
  WHERE a.tx = $1::bigint AND a.id > $2::bigint AND a.action IN (${ACTIONS_SQL})
  ORDER BY a.id`;

/** Moves the cursor: `$1` consumer, `$2` new boundary. */
export const ADVANCE_CURSOR_SQL = `UPDATE action_feed_cursors
  SET boundary = $2::bigint, updated_at = now() WHERE consumer = $1`;
