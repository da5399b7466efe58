import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/app/clock';
import { Auth, bearer } from '../support/catalog';
import { Product, seedFindings, startWithProduct, freshProduct } from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;
let clockAt: Date;

const DAY = 86_400_000;
const T0 = new Date('2031-01-06T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
  clockAt = T0;
  // The injected clock: every lifecycle decision of the app reads it (no sleeps).
  jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(clockAt.getTime()));
});
afterAll(async () => {
  jest.restoreAllMocks();
  await t.close();
});

const setClock = (ms: number) => {
  clockAt = at(ms);
};
const patch = (auth: Auth, id: string, body: Record<string, unknown>) =>
  auth.apply(request(t.url).patch(`/api/v1/findings/${id}`).send(body));
const get = async (id: string) =>
  (
    await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}`))
      .expect(200)
  ).body.data as Record<string, unknown>;
const actions = async (id: string) =>
  (
    await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}/actions`))
      .expect(200)
  ).body.data as {
    action: string;
    actor: { type: string; id: string | null };
    from: Record<string, unknown> | null;
    to: Record<string, unknown> | null;
    at: string;
  }[];
const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;

async function openViolation(findingId: string, kind: 'approaching' | 'breached') {
  const [row] = await sql(
    `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at, opened_at)
     SELECT id, project_id, product_id, severity, $2, COALESCE(sla_due_at, now()), now()
       FROM findings WHERE id = $1 RETURNING id`,
    [findingId, kind],
  );
  return String(row?.['id']);
}

describe('Finding lifecycle - the remediation clock through PATCH (injected clock)', () => {
  it('starts when taken into work, pauses in waiting, and the return shifts the deadline by exactly the idle time', async () => {
    const [id] = await seedFindings(t, product, [
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
    ]);
    setClock(0);
    const started = (await patch(bearer(admin), id, { status: 'in_progress' }).expect(200)).body
      .data;
    expect(started).toMatchObject({
      sla_started_at: iso(0),
      sla_paused_at: null,
      sla_due_at: iso(14 * DAY),
    });

    setClock(2 * DAY);
    const waiting = (
      await patch(bearer(admin), id, {
        status: 'waiting',
        waiting_reason: 'vendor patch',
        waiting_until: iso(12 * DAY),
      }).expect(200)
    ).body.data;
    expect(waiting).toMatchObject({ sla_paused_at: iso(2 * DAY), sla_due_at: iso(14 * DAY) });

    const idle = 3 * DAY + 7_654_321; // 3 days, 2 h 7 min 34.321 s
    setClock(2 * DAY + idle);
    const back = (await patch(bearer(admin), id, { status: 'in_progress' }).expect(200)).body.data;
    expect(back).toMatchObject({
      status: 'in_progress',
      sla_started_at: iso(0),
      sla_paused_at: null,
      sla_due_at: iso(14 * DAY + idle),
      waiting_reason: null,
      waiting_until: null,
    });

    const log = await actions(id);
    expect(log.map((a) => [a.action, a.from?.['status'], a.to?.['status'], a.at])).toEqual([
      ['status_changed', 'confirmed', 'in_progress', iso(0)],
      ['status_changed', 'in_progress', 'waiting', iso(2 * DAY)],
      ['status_changed', 'waiting', 'in_progress', iso(2 * DAY + idle)],
    ]);
    // Each entry names the user; the deadline shows only when the move shifted it: the start
    // sets it; the pause and the return leave it where it stands (the paused clock counted its
    // pause so far on both sides), so neither entry repeats it ("x -> x").
    expect(log[0]).toMatchObject({
      actor: { type: 'user', id: admin.userId },
      to: { sla_due_at: iso(14 * DAY) },
    });
    expect(log[1]).toMatchObject({ from: { status: 'in_progress' } });
    expect(log[1]!.from).not.toHaveProperty('sla_due_at');
    expect(log[2]).toEqual(
      expect.objectContaining({
        from: {
          status: 'waiting',
          waiting_reason: 'vendor patch',
          waiting_until: expect.any(String),
        },
        to: { status: 'in_progress' },
      }),
    );
  });

  it('adds up several pauses (risk_accepted, needs_review) and resumes on any attention state', async () => {
    const [id] = await seedFindings(t, product, [
      { severity: 'CRITICAL', status: 'confirmed', sla_days: 7 },
    ]);
    setClock(0);
    await patch(bearer(admin), id, { status: 'in_progress' }).expect(200);
    setClock(1 * DAY);
    await patch(bearer(admin), id, {
      status: 'risk_accepted',
      risk_accepted_until: iso(40 * DAY),
      justification: 'accepted until the next release',
    }).expect(200);
    // Moving between pausing states keeps the first stop moment.
    setClock(2 * DAY);
    expect(
      (await patch(bearer(admin), id, { status: 'needs_review' }).expect(200)).body.data,
    ).toMatchObject({ sla_paused_at: iso(1 * DAY), sla_due_at: iso(7 * DAY) });
    setClock(4 * DAY);
    expect(
      (await patch(bearer(admin), id, { status: 'confirmed' }).expect(200)).body.data,
    ).toMatchObject({ sla_paused_at: null, sla_due_at: iso(10 * DAY) });
    setClock(5 * DAY);
    await patch(bearer(admin), id, { status: 'needs_review' }).expect(200);
    setClock(5 * DAY + 1_500);
    expect(
      (await patch(bearer(admin), id, { status: 'in_progress' }).expect(200)).body.data,
    ).toMatchObject({ sla_started_at: iso(0), sla_due_at: iso(10 * DAY + 1_500) });
  });

  it('a closing state stops the clock and closes the open violations; the next start is afresh', async () => {
    const [id, other] = await seedFindings(t, product, [
      { severity: 'MEDIUM', status: 'confirmed', sla_days: 30 },
      { severity: 'MEDIUM', status: 'confirmed', sla_days: 30 },
    ]);
    setClock(0);
    await patch(bearer(admin), id, { status: 'in_progress' }).expect(200);
    await patch(bearer(admin), other, { status: 'in_progress' }).expect(200);
    const approaching = await openViolation(id, 'approaching');
    const breached = await openViolation(id, 'breached');
    const untouched = await openViolation(other, 'breached');

    setClock(31 * DAY);
    const fixed = (await patch(bearer(admin), id, { status: 'fixed' }).expect(200)).body.data;
    expect(fixed).toMatchObject({ sla_started_at: null, sla_paused_at: null, sla_due_at: null });
    const rows = await sql(
      `SELECT id, resolved_at, resolution, resolved_by_type, resolved_by_id FROM sla_violations
        WHERE id = ANY($1::uuid[]) ORDER BY id`,
      [[approaching, breached, untouched]],
    );
    const byId = new Map(rows.map((r) => [r['id'], r]));
    for (const closed of [approaching, breached]) {
      expect(byId.get(closed)).toMatchObject({
        resolved_at: at(31 * DAY),
        resolution: 'finding_closed',
        resolved_by_type: 'user',
        resolved_by_id: admin.userId,
      });
    }
    expect(byId.get(untouched)).toMatchObject({ resolved_at: null, resolution: null });

    // A pausing state leaves the violation of `other` open; wont_fix closes it.
    await patch(bearer(admin), other, { status: 'needs_review' }).expect(200);
    expect(
      (await sql(`SELECT resolved_at FROM sla_violations WHERE id = $1`, [untouched]))[0],
    ).toMatchObject({ resolved_at: null });
    await patch(bearer(admin), other, { status: 'wont_fix', justification: 'legacy' }).expect(200);
    expect(
      (await sql(`SELECT resolution FROM sla_violations WHERE id = $1`, [untouched]))[0],
    ).toMatchObject({ resolution: 'finding_closed' });

    setClock(40 * DAY);
    await patch(bearer(admin), id, { status: 'confirmed' }).expect(200);
    expect(await get(id)).toMatchObject({ sla_started_at: null, sla_due_at: null });
    const again = (await patch(bearer(admin), id, { status: 'in_progress' }).expect(200)).body.data;
    expect(again).toMatchObject({ sla_started_at: iso(40 * DAY), sla_due_at: iso(70 * DAY) });
  });

  it('changing the project days recomputes open deadlines: started + days + idle', async () => {
    const own = await freshProduct(t, admin);
    const [running, paused, closed, notStarted, low] = await seedFindings(t, own, [
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'HIGH', status: 'fixed', sla_days: 14 },
      { severity: 'HIGH', status: 'new', sla_days: 14 },
      { severity: 'LOW', status: 'confirmed', sla_days: 90 },
    ]);
    setClock(0);
    for (const id of [running, paused, low]) {
      await patch(bearer(admin), id, { status: 'in_progress' }).expect(200);
    }
    setClock(1 * DAY);
    await patch(bearer(admin), paused, { status: 'needs_review' }).expect(200);
    setClock(3 * DAY);
    await patch(bearer(admin), paused, { status: 'in_progress' }).expect(200); // idle 2 days
    await patch(bearer(admin), paused, { status: 'needs_review' }).expect(200);

    await bearer(admin)
      .apply(
        request(t.url)
          .put(`/api/v1/projects/${own.project_id}/settings`)
          .send({ remediation_days: { HIGH: 20 } }),
      )
      .expect(200);
    expect(await get(running)).toMatchObject({ sla_days: 20, sla_due_at: iso(20 * DAY) });
    // A paused clock gets the new days at once; its current pause is added on return.
    expect(await get(paused)).toMatchObject({
      sla_days: 20,
      sla_paused_at: iso(3 * DAY),
      sla_due_at: iso(22 * DAY),
    });
    expect(await get(notStarted)).toMatchObject({ sla_days: 20, sla_due_at: null });
    expect(await get(closed)).toMatchObject({ sla_days: 14, sla_due_at: null });
    expect(await get(low)).toMatchObject({ sla_days: 90, sla_due_at: iso(90 * DAY) });

    // No days for the severity: the clock has no deadline.
    await bearer(admin)
      .apply(
        request(t.url)
          .put(`/api/v1/projects/${own.project_id}/settings`)
          .send({ remediation_days: { HIGH: null } }),
      )
      .expect(200);
    expect(await get(running)).toMatchObject({ sla_days: null, sla_due_at: null });
  });
});
