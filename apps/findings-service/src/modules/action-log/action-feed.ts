import type { EntityManager } from 'typeorm';
import {
  ADVANCE_CURSOR_SQL,
  FEED_ACTIONS,
  type FeedAction,
  type FeedSelection,
  LOCK_CURSOR_SQL,
  pageSql,
  restOfTxSql,
  UPPER_SQL,
} from './action-feed.sql';

export { FEED_ACTIONS, type FeedAction } from './action-feed.sql';

/** Consumers of the feed; each has its row in `action_feed_cursors` (made by its migration). */
export const FEED_CONSUMERS = ['notifications', 'tickets'] as const;
export type FeedConsumer = (typeof FEED_CONSUMERS)[number];

/** Entries per page; a page never splits one transaction (a larger one is read whole). */
export const FEED_PAGE_SIZE = 5_000;

/** One action-log entry as the feed gives it. */
export interface FeedEntry {
  id: string;
  /** The writing transaction's 64-bit id (decimal string). */
  tx: string;
  findingId: string;
  projectId: string;
  action: FeedAction;
  from: Record<string, unknown> | null;
  to: Record<string, unknown> | null;
  at: Date;
}

/** What one `readFeed` call read and where it left the cursor. */
export interface FeedPage {
  entries: FeedEntry[];
  /** The cursor before the call (first transaction id of the range read). */
  from: string;
  /** The cursor after the call: every transaction below it has been read. */
  boundary: string;
  /** The snapshot horizon of the call (no transaction below it is still running). */
  upper: string;
  /** True when the page was full: more entries below `upper` wait for the next call. */
  more: boolean;
}

/**
 * What a consumer reads: entries it would drop stay in PostgreSQL (a first ingest of 100 000
 * findings writes 100 000 `created` entries; parsing them cost the worker ~0.65 s of CPU per
 * consumer that reads them).
 */
export interface FeedReadOptions {
  /** Only entries of these actions (default: every action of the feed). */
  actions?: readonly FeedAction[];
  /**
   * Only entries of these projects (default: every project). An empty list reads nothing, and
   * the cursor still moves to the horizon: the range holds nothing for this consumer.
   */
  projectIds?: readonly string[];
  /** Entries per page (a page never splits one transaction). */
  pageSize?: number;
}

/**
 * Reads the consumer's next page of the action-log feed (`created`, `status_changed` entries,
 * ordered by transaction id, then entry id; `options` narrows them) and advances its cursor —
 * **in the caller's transaction**: pass the `EntityManager` of the transaction that also writes
 * what the entries cause, so the cursor and those writes commit (or roll back) together. The
 * cursor row is locked until then, so two readers of one consumer serialize.
 *
 * The range is `[cursor, upper)` with `upper` = the snapshot's xmin: every transaction below it
 * has ended, so nothing in the range can still appear — nothing is read twice, nothing skipped.
 * A transaction still running anywhere holds `upper` back: the feed is delayed, never lossy.
 * Entries left out by `options` are passed over for good: the cursor moves past them.
 */
export async function readFeed(
  manager: EntityManager,
  consumer: FeedConsumer,
  options: FeedReadOptions = {},
): Promise<FeedPage> {
  if (manager.queryRunner?.isTransactionActive !== true) {
    throw new Error('readFeed must run inside the consumer transaction');
  }
  const pageSize = options.pageSize ?? FEED_PAGE_SIZE;
  const wanted = options.actions ?? FEED_ACTIONS;
  const nothingWanted = wanted.length === 0 || options.projectIds?.length === 0;
  const selection: FeedSelection = { actions: wanted, byProject: options.projectIds !== undefined };
  // Built (and the actions checked) before anything is read or locked.
  const sql = nothingWanted
    ? undefined
    : { page: pageSql(selection), rest: restOfTxSql(selection) };
  const [cursor] = (await manager.query(LOCK_CURSOR_SQL, [consumer])) as (
    { boundary: string } | undefined
  )[];
  if (!cursor) throw new Error(`no action-feed cursor for consumer ${consumer}`);
  const from = cursor.boundary;
  const [{ upper }] = (await manager.query(UPPER_SQL)) as [{ upper: string }];
  if (BigInt(upper) <= BigInt(from)) {
    return { entries: [], from, boundary: from, upper, more: false };
  }
  if (!sql) {
    await manager.query(ADVANCE_CURSOR_SQL, [consumer, upper]);
    return { entries: [], from, boundary: upper, upper, more: false };
  }
  const projects = options.projectIds ? [options.projectIds] : [];
  const page = ((await manager.query(sql.page, [from, upper, pageSize, ...projects])) as Row[]).map(
    toEntry,
  );
  let boundary = upper;
  let more = false;
  const last = page.length >= pageSize ? page[page.length - 1] : undefined;
  if (last) {
    const rest = ((await manager.query(sql.rest, [last.tx, last.id, ...projects])) as Row[]).map(
      toEntry,
    );
    page.push(...rest);
    boundary = (BigInt(last.tx) + 1n).toString();
    more = BigInt(boundary) < BigInt(upper);
  }
  await manager.query(ADVANCE_CURSOR_SQL, [consumer, boundary]);
  return { entries: page, from, boundary, upper, more };
}

type Row = Record<string, unknown>;

function toEntry(r: Row): FeedEntry {
  return {
    id: String(r['id']),
    tx: String(r['tx']),
    findingId: String(r['finding_id']),
    projectId: String(r['project_id']),
    action: r['action'] as FeedAction,
    from: (r['from_value'] as Record<string, unknown> | null) ?? null,
    to: (r['to_value'] as Record<string, unknown> | null) ?? null,
    at: r['at'] as Date,
  };
}
