import type { TestDatabase } from '@platform/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource, type QueryRunner } from 'typeorm';
import { findingsDataSourceOptions } from '../../src/database/data-source';
import {
  readFeed,
  type FeedConsumer,
  type FeedPage,
  type FeedReadOptions,
} from '../../src/modules/action-log';
import { testDatabase } from '../support/test-app';

/**
 * The action-log feed (modules/action-log/action-feed.ts) against real PostgreSQL: ordered by
 * transaction id, a long transaction delays the feed and is never skipped, nothing is read twice.
 */
describe('Action-log feed - readFeed', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const projectId = randomUUID();

  beforeAll(async () => {
    db = await testDatabase();
    ds = new DataSource(findingsDataSourceOptions(db.url, 'feed-test', 4));
    await ds.initialize();
  });

  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /** A client of its own: a transaction that stays open while the test reads the feed. */
  async function openClient(): Promise<Client> {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    return c;
  }

  /** Writes action-log entries the way the writers do (the column default fills `tx`). */
  async function insertEntries(
    c: Client | DataSource,
    findingIds: string[],
    action = 'created',
    project = projectId,
  ): Promise<string[]> {
    const sql = `INSERT INTO finding_actions (finding_id, project_id, actor_type, action, to_value)
       SELECT f, $2, 'system', $3, '{"status":"new"}' FROM unnest($1::uuid[]) AS f
       RETURNING finding_id`;
    const params = [findingIds, project, action];
    const list =
      c instanceof Client
        ? (await c.query<{ finding_id: string }>(sql, params)).rows
        : ((await c.query(sql, params)) as { finding_id: string }[]);
    return list.map((r) => r.finding_id);
  }

  async function read(consumer: FeedConsumer = 'notifications', options?: FeedReadOptions) {
    const qr: QueryRunner = ds.createQueryRunner();
    await qr.connect();
    await qr.startTransaction();
    try {
      const page = await readFeed(qr.manager, consumer, options);
      await qr.commitTransaction();
      return page;
    } catch (err) {
      await qr.rollbackTransaction();
      throw err;
    } finally {
      await qr.release();
    }
  }

  /** Reads until the feed has nothing more below its horizon. */
  async function drain(consumer: FeedConsumer = 'notifications', options?: FeedReadOptions) {
    const pages: FeedPage[] = [];
    for (;;) {
      const page = await read(consumer, options);
      pages.push(page);
      if (!page.more) return pages;
    }
  }

  const ids = (pages: FeedPage[]) => pages.flatMap((p) => p.entries.map((e) => e.findingId));

  /**
   * Waits (at most a minute) until the feed's horizon has passed the transactions that wrote
   * the entries of `findingIds`. The horizon is the oldest transaction open anywhere on the
   * PostgreSQL server, and the test files running beside this one hold transactions open in
   * their own databases: until those end, what this test committed is delayed (never
   * skipped), and a read right after the write could find nothing yet.
   */
  async function settled(findingIds: string[]): Promise<void> {
    const until = Date.now() + 60_000;
    for (;;) {
      const [row] = (await ds.query(
        `SELECT (SELECT max(tx) FROM finding_actions WHERE finding_id = ANY($1::uuid[]))
                < (pg_snapshot_xmin(pg_current_snapshot()))::text::bigint AS past`,
        [findingIds],
      )) as { past: boolean }[];
      if (row?.past || Date.now() > until) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('has the cursors of both consumers (made by the migration) and feeds what is written after', async () => {
    const rows = (await ds.query(`SELECT consumer FROM action_feed_cursors ORDER BY consumer`)) as {
      consumer: string;
    }[];
    expect(rows.map((r) => r.consumer)).toEqual(['notifications', 'tickets']);
    await drain();
    await drain('tickets');
    const later = await insertEntries(ds, [randomUUID()]);
    await settled(later);
    expect(ids(await drain())).toEqual(later);
  });

  it('reads committed entries once, in transaction order, and only created/status_changed', async () => {
    await drain();
    const a = await insertEntries(ds, [randomUUID(), randomUUID()]);
    await insertEntries(ds, [randomUUID()], 'assigned');
    const b = await insertEntries(ds, [randomUUID()], 'status_changed');
    await settled([...a, ...b]);
    const pages = await drain();
    expect(ids(pages)).toEqual([...a, ...b]);
    const txs = pages.flatMap((p) => p.entries.map((e) => BigInt(e.tx)));
    expect(txs[0]).toBe(txs[1]);
    expect(txs[2]! > txs[0]!).toBe(true);
    expect(ids(await drain())).toEqual([]);
  });

  it('a long transaction delays the feed and is read after it commits, never skipped (its entry ids are lower)', async () => {
    await drain();
    const long = await openClient();
    try {
      await long.query('BEGIN');
      // The long transaction writes first: its entry id is below the next one's.
      const early = await insertEntries(long, [randomUUID()]);
      const committed = await insertEntries(ds, [randomUUID()]);
      const entryIds = (await ds.query(
        `SELECT id::text AS id FROM finding_actions WHERE finding_id = $1`,
        [committed[0]],
      )) as { id: string }[];
      const delayed = await drain();
      // Its horizon stops at the open transaction: the later commit waits too.
      expect(ids(delayed)).toEqual([]);
      await long.query('COMMIT');
      await settled([...early, ...committed]);
      const pages = await drain();
      expect(ids(pages)).toEqual([...early, ...committed]);
      const read = pages.flatMap((p) => p.entries);
      expect(BigInt(read[0]!.id) < BigInt(entryIds[0]!.id)).toBe(true);
      expect(ids(await drain())).toEqual([]);
    } finally {
      await long.end();
    }
  });

  it('a rolled-back transaction leaves nothing, and the cursor moves past it', async () => {
    await drain();
    const c = await openClient();
    try {
      await c.query('BEGIN');
      await insertEntries(c, [randomUUID()]);
      await c.query('ROLLBACK');
    } finally {
      await c.end();
    }
    const after = await insertEntries(ds, [randomUUID()]);
    await settled(after);
    expect(ids(await drain())).toEqual(after);
  });

  it('pages never split a transaction: one larger than a page is read whole', async () => {
    await drain();
    const big = await insertEntries(
      ds,
      Array.from({ length: 7 }, () => randomUUID()),
    );
    const small = await insertEntries(ds, [randomUUID(), randomUUID()]);
    await settled([...big, ...small]);
    const first = await read('notifications', { pageSize: 3 });
    expect(first.entries.map((e) => e.findingId)).toEqual(big);
    expect(first.more).toBe(true);
    const rest = await drain('notifications', { pageSize: 3 });
    expect(ids(rest)).toEqual(small);
  });

  it('the consumers are independent', async () => {
    await drain('tickets');
    await drain('notifications');
    const x = await insertEntries(ds, [randomUUID()]);
    await settled(x);
    expect(ids(await drain('tickets'))).toEqual(x);
    expect(ids(await drain('notifications'))).toEqual(x);
  });

  it('two readers of one consumer at once: each entry read by exactly one of them', async () => {
    await drain();
    const written: string[] = [];
    for (let i = 0; i < 10; i++) written.push(...(await insertEntries(ds, [randomUUID()])));
    await settled(written);
    const pages = await Promise.all([
      read('notifications', { pageSize: 4 }),
      read('notifications', { pageSize: 4 }),
    ]);
    const more = await drain('notifications', { pageSize: 4 });
    const all = ids([...pages, ...more]);
    expect([...all].sort()).toEqual([...written].sort());
    expect(new Set(all).size).toBe(all.length);
  });

  it('a consumer asking for some actions reads only those, and passes over the others for good', async () => {
    await drain('tickets');
    const created = await insertEntries(ds, [randomUUID(), randomUUID()]);
    const changed = await insertEntries(ds, [randomUUID()], 'status_changed');
    const createdLater = await insertEntries(ds, [randomUUID()]);
    await settled([...created, ...changed, ...createdLater]);
    const pages = await drain('tickets', { actions: ['status_changed'] });
    expect(ids(pages)).toEqual(changed);
    expect(pages.flatMap((p) => p.entries.map((e) => e.action))).toEqual(['status_changed']);
    expect(ids(await drain('tickets'))).toEqual([]);
    // The other consumer's cursor did not move: it still reads everything.
    expect(ids(await drain('notifications'))).toEqual([...created, ...changed, ...createdLater]);
  });

  it('a page of some actions never splits a transaction either', async () => {
    await drain('tickets');
    const big = await insertEntries(
      ds,
      Array.from({ length: 7 }, () => randomUUID()),
      'status_changed',
    );
    await insertEntries(ds, [randomUUID(), randomUUID()]);
    const small = await insertEntries(ds, [randomUUID(), randomUUID()], 'status_changed');
    await settled([...big, ...small]);
    const options: FeedReadOptions = { actions: ['status_changed'], pageSize: 3 };
    const first = await read('tickets', options);
    expect(first.entries.map((e) => e.findingId)).toEqual(big);
    expect(first.more).toBe(true);
    expect(ids(await drain('tickets', options))).toEqual(small);
  });

  it('reads only the entries of the projects asked for; an empty list reads none and moves the cursor to the horizon', async () => {
    await drain();
    const other = randomUUID();
    const ours = await insertEntries(ds, [randomUUID()]);
    const theirs = await insertEntries(ds, [randomUUID(), randomUUID()], 'created', other);
    const ourChange = await insertEntries(ds, [randomUUID()], 'status_changed');
    await settled([...ours, ...theirs, ...ourChange]);
    expect(ids(await drain('notifications', { projectIds: [projectId] }))).toEqual([
      ...ours,
      ...ourChange,
    ]);
    expect(ids(await drain())).toEqual([]);

    const skipped = await insertEntries(ds, [randomUUID()], 'created', other);
    await settled(skipped);
    const none = await read('notifications', { projectIds: [] });
    expect(none.entries).toEqual([]);
    expect(none.more).toBe(false);
    expect(none.boundary).toBe(none.upper);
    expect(BigInt(none.boundary) > BigInt(none.from)).toBe(true);
    expect(ids(await drain())).toEqual([]);
  });

  it('refuses an action the feed does not carry (never written into the statement)', async () => {
    await expect(read('tickets', { actions: ["assigned') OR (true" as never] })).rejects.toThrow(
      /unknown actions/,
    );
  });

  it('a rolled-back reader leaves the cursor where it was', async () => {
    await drain();
    const x = await insertEntries(ds, [randomUUID()]);
    await settled(x);
    const qr = ds.createQueryRunner();
    await qr.connect();
    await qr.startTransaction();
    const page = await readFeed(qr.manager, 'notifications');
    expect(page.entries.map((e) => e.findingId)).toEqual(x);
    await qr.rollbackTransaction();
    await qr.release();
    expect(ids(await drain())).toEqual(x);
  });

  it('refuses to run outside a transaction (the cursor would move without the consumer writes)', async () => {
    await expect(readFeed(ds.manager, 'notifications')).rejects.toThrow(/inside the consumer/);
  });
});
