/**
 * SQL of the action-log feed (action-feed.ts). Entries are ordered by the id of the transaction
 * that wrote them (`tx`), never by entry id: a long transaction commits entry ids below ones
 * already read, but its `tx` stays at or above the reader's snapshot horizon until it ends.
 */

/** Actions the feed carries (the partial index `ix_finding_actions_feed` covers exactly these). */
export const FEED_ACTIONS = ['created', 'status_changed'] as const;
export type FeedAction = (typeof FEED_ACTIONS)[number];

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

/** What one consumer reads of the feed: some of its actions, the entries of some projects. */
export interface FeedSelection {
  /** A non-empty subset of FEED_ACTIONS. */
  actions: readonly FeedAction[];
  /** Whether the statement takes a `uuid[]` of projects as its last parameter. */
  byProject: boolean;
}

/**
 * The selection's condition. The actions are written as constants (checked against
 * FEED_ACTIONS, never a parameter): PostgreSQL proves the partial index `ix_finding_actions_feed`
 * usable only from constants.
 */
function selectionSql(selection: FeedSelection, projectsParam: number): string {
  const unknown = selection.actions.filter((a) => !(FEED_ACTIONS as readonly string[]).includes(a));
  if (selection.actions.length === 0 || unknown.length > 0)
    throw new Error(`action feed: no or unknown actions (${unknown.join(', ')})`);
  const actions = [...new Set(selection.actions)].map((a) => `'${a}'`).join(', ');
  const projects = selection.byProject ? ` AND a.project_id = ANY($${projectsParam}::uuid[])` : '';
  return `a.action IN (${actions})${projects}`;
}

/**
 * A page: `$1` boundary (inclusive), `$2` upper (exclusive), `$3` page size, `$4` project ids
 * (FeedSelection.byProject).
 */
export function pageSql(selection: FeedSelection): string {
  return `SELECT ${COLUMNS} FROM finding_actions a
  WHERE a.tx >= $1::bigint AND a.tx < $2::bigint AND ${selectionSql(selection, 4)}
  ORDER BY a.tx, a.id LIMIT $3`;
}

/**
 * The rest of one transaction a full page ended in: `$1` tx, `$2` last entry id read, `$3`
 * project ids (FeedSelection.byProject).
 */
export function restOfTxSql(selection: FeedSelection): string {
  return `SELECT ${COLUMNS} FROM finding_actions a
  WHERE a.tx = $1::bigint AND a.id > $2::bigint AND ${selectionSql(selection, 3)}
  ORDER BY a.id`;
}

/** Moves the cursor: `$1` consumer, `$2` new boundary. */
export const ADVANCE_CURSOR_SQL = `UPDATE action_feed_cursors
  SET boundary = $2::bigint, updated_at = now() WHERE consumer = $1`;
