import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/app/clock';
import { bearer } from '../support/catalog';
import { freshProduct, seedFindings, startWithProduct } from '../support/findings-seed';
import type { Login } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/**
 * The bulk status change while other transactions write the same findings (issue 34 made the
 * statement cheaper; these pin what it must keep): it waits for a row another transaction
 * holds, then changes the version that transaction committed — never the older one its own
 * snapshot saw — logs that version as `from`, keeps the other writer's columns (no lost
 * update), and leaves out a finding the other writer moved out of the selection. Its
 * transaction's settings end with it.
 */
let t: TestApp;
let admin: Login;

const DAY = 86_400_000;
const T0 = new Date('2031-05-05T08:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();

beforeAll(async () => {
  ({ t, admin } = await startWithProduct());
  jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(T0.getTime()));
});
afterAll(async () => {
  jest.restoreAllMocks();
  await t.close();
});

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;
const bulk = (body: Record<string, unknown>) =>
  bearer(admin).apply(request(t.url).post('/api/v1/findings/bulk-status').send(body));

/** A second connection: the other writer, holding its row locks until it commits. */
async function otherWriter(): Promise<Client> {
  const client = new Client({ connectionString: t.db.url });
  await client.connect();
  await client.query('BEGIN');
  return client;
}

/** Waits until some backend of this database waits for a row lock (the bulk change). */
async function untilBlocked(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [row] = await sql(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%WITH target AS%'`,
    );
    if (Number(row?.['n']) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the bulk change never waited for the row lock');
}

const rowsOf = async (ids: string[]) =>
  new Map(
    (
      await sql(
        `SELECT id, status, risk_accepted_until, triage_comment, sla_started_at, sla_due_at
           FROM findings WHERE id = ANY($1::uuid[])`,
        [ids],
      )
    ).map((r) => [r['id'], r]),
  );
const entriesAt = async (ids: string[], when: Date) =>
  new Map(
    (
      await sql(
        `SELECT finding_id, action, from_value, to_value FROM finding_actions
          WHERE finding_id = ANY($1::uuid[]) AND at = $2 ORDER BY id`,
        [ids, when],
      )
    ).map((r) => [r['finding_id'], [r['action'], r['from_value'], r['to_value']]]),
  );

describe('Bulk status change - concurrent writers', () => {
  it('changes the version another transaction committed while it waited, logs it as from, keeps its columns', async () => {
    const own = await freshProduct(t, admin);
    const [a, b, c] = await seedFindings(t, own, [
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'HIGH', status: 'new', sla_days: 14 },
    ]);
    const other = await otherWriter();
    try {
      // Not yet committed when the bulk change starts: its snapshot sees b `confirmed`.
      await other.query(
        `UPDATE findings SET status = 'risk_accepted', risk_accepted_until = $2,
           triage_comment = 'set by the other writer' WHERE id = $1`,
        [b, at(30 * DAY)],
      );
      const pending = bulk({ filters: { product_id: own.id }, status: 'in_progress' }).then(
        (res) => res,
      );
      await untilBlocked();
      await other.query('COMMIT');
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ matched: 3, changed: 3, violations_closed: 0 });
    } finally {
      await other.end();
    }

    const rows = await rowsOf([a, b, c]);
    for (const id of [a, b, c]) {
      // Each clock starts at the change; b's state fields are the bulk change's (none).
      expect(rows.get(id)).toMatchObject({
        status: 'in_progress',
        risk_accepted_until: null,
        sla_started_at: T0,
        sla_due_at: at(14 * DAY),
      });
    }
    // The other writer's column survives: the bulk change updated its committed version.
    expect(rows.get(b)?.['triage_comment']).toBe('set by the other writer');
    expect(rows.get(a)?.['triage_comment']).toBeNull();
    // One entry each; b's `from` is what the other writer committed, not the snapshot's.
    const to = { status: 'in_progress', sla_due_at: iso(14 * DAY) };
    expect(Object.fromEntries(await entriesAt([a, b, c], T0))).toEqual({
      [a]: ['status_changed', { status: 'confirmed' }, to],
      [b]: ['status_changed', { status: 'risk_accepted', risk_accepted_until: iso(30 * DAY) }, to],
      [c]: ['status_changed', { status: 'new' }, to],
    });
  });

  it('leaves out a finding another transaction moved out of the selection while it waited', async () => {
    const own = await freshProduct(t, admin);
    const [a, b] = await seedFindings(t, own, [
      { severity: 'LOW', status: 'confirmed', sla_days: 90 },
      { severity: 'LOW', status: 'confirmed', sla_days: 90 },
    ]);
    const other = await otherWriter();
    try {
      await other.query(`UPDATE findings SET status = 'fixed' WHERE id = $1`, [b]);
      const pending = bulk({
        filters: { product_id: own.id, status: 'confirmed' },
        status: 'in_progress',
      }).then((res) => res);
      await untilBlocked();
      await other.query('COMMIT');
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ matched: 1, changed: 1, violations_closed: 0 });
    } finally {
      await other.end();
    }
    const rows = await rowsOf([a, b]);
    expect(rows.get(a)).toMatchObject({ status: 'in_progress', sla_started_at: T0 });
    expect(rows.get(b)).toMatchObject({ status: 'fixed', sla_started_at: null });
    expect([...(await entriesAt([a, b], T0)).keys()]).toEqual([a]);
  });

  it("ends its transaction's settings with it: every pooled connection keeps the server's", async () => {
    const ds = t.app.get(DataSource);
    const settings = () =>
      // More at once than the pool holds: every pooled connection answers.
      Promise.all(
        Array.from(
          { length: 12 },
          () =>
            ds.query(
              `SELECT current_setting('jit') AS jit, current_setting('work_mem') AS work_mem,
                    pg_sleep(0.05)::text AS slept`,
            ) as Promise<{ jit: string; work_mem: string }[]>,
        ),
      ).then((all) => new Set(all.map(([r]) => `${r?.jit} ${r?.work_mem}`)));
    const before = await settings();
    expect(before.size).toBe(1);
    const own = await freshProduct(t, admin);
    await seedFindings(t, own, [{ status: 'new' }, { status: 'new' }]);
    const res = await bulk({ filters: { product_id: own.id }, status: 'confirmed' }).expect(200);
    expect(res.body.data).toMatchObject({ matched: 2, changed: 2 });
    expect(await settings()).toEqual(before);
  });
});
