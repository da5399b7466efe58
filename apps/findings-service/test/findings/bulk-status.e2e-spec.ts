import request from 'supertest';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/app/clock';
import { BulkStatusRepository } from '../../src/modules/findings/lifecycle/bulk-status.repository';
import { planBulkTransition } from '../../src/modules/findings/lifecycle/finding-lifecycle';
import { toBulkTarget } from '../../src/modules/findings/list/bulk-selection';
import { Auth, bearer } from '../support/catalog';
import {
  freshMember,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
  startWithProduct,
} from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

let t: TestApp;
let admin: Login;
let product: Product;
let clockAt: Date;

const DAY = 86_400_000;
const T0 = new Date('2031-03-03T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => at(ms).toISOString();

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
  clockAt = T0;
  jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => new Date(clockAt.getTime()));
});
afterAll(async () => {
  jest.restoreAllMocks();
  await t.close();
});

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;
const bulk = (auth: Auth, body: Record<string, unknown>) =>
  auth.apply(request(t.url).post('/api/v1/findings/bulk-status').send(body));
const patch = (id: string, body: Record<string, unknown>) =>
  bearer(admin)
    .apply(request(t.url).patch(`/api/v1/findings/${id}`).send(body))
    .expect(200);
const stateOf = async (ids: string[]) =>
  sql(
    `SELECT id, status, risk_accepted_until, sla_started_at, sla_paused_at, sla_due_at, updated_at
       FROM findings WHERE id = ANY($1::uuid[]) ORDER BY id`,
    [ids],
  );
const logOf = (ids: string[]) =>
  sql(
    `SELECT finding_id, actor_type, actor_id, action, from_value, to_value, at
       FROM finding_actions WHERE finding_id = ANY($1::uuid[]) ORDER BY id`,
    [ids],
  );

describe('Bulk status change - /api/v1/findings/bulk-status (POST)', () => {
  it('moves every finding by ids, each with its own entry, its own clock and its own violations', async () => {
    const own = await freshProduct(t, admin);
    const [fresh, running, paused, already] = await seedFindings(t, own, [
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'LOW', status: 'confirmed', sla_days: 90 },
      { severity: 'LOW', status: 'in_progress', sla_days: 90 },
    ]);
    clockAt = at(0);
    await patch(running, { status: 'in_progress' });
    await patch(paused, { status: 'in_progress' });
    clockAt = at(1 * DAY);
    await patch(paused, { status: 'needs_review' });
    await sql(
      `INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at, opened_at)
       SELECT id, project_id, product_id, severity, 'approaching', sla_due_at, now()
         FROM findings WHERE id = $1`,
      [running],
    );

    clockAt = at(4 * DAY + 250);
    const res = await bulk(bearer(admin), {
      finding_ids: [fresh, running, paused, already],
      status: 'in_progress',
    }).expect(200);
    // `running` and `already` are in the target state already: matched, not changed.
    expect(res.body.data).toEqual({ matched: 4, changed: 2, violations_closed: 0 });
    const rows = new Map(
      (await stateOf([fresh, running, paused, already])).map((r) => [r['id'], r]),
    );
    // Own timer: a fresh start, a running clock untouched, a paused one shifted by its idle time.
    expect(rows.get(fresh)).toMatchObject({
      status: 'in_progress',
      sla_started_at: at(4 * DAY + 250),
      sla_due_at: at(18 * DAY + 250),
    });
    expect(rows.get(running)).toMatchObject({ sla_started_at: at(0), sla_due_at: at(14 * DAY) });
    expect(rows.get(paused)).toMatchObject({
      sla_started_at: at(0),
      sla_paused_at: null,
      sla_due_at: at(93 * DAY + 250),
    });
    // Findings already in the target state get no entry.
    const entries = (await logOf([fresh, running, paused, already])).filter(
      (e) => (e['at'] as Date).getTime() === at(4 * DAY + 250).getTime(),
    );
    expect(entries.map((e) => e['finding_id']).sort()).toEqual([fresh, paused].sort());
    for (const e of entries) {
      expect(e).toMatchObject({
        actor_type: 'user',
        actor_id: admin.userId,
        action: 'status_changed',
        to_value: expect.objectContaining({ status: 'in_progress' }),
      });
    }
    // Resuming does not shift the deadline as it stands: no "deadline x -> x" in the entry.
    expect(entries.find((e) => e['finding_id'] === paused)).toMatchObject({
      from_value: { status: 'needs_review' },
      to_value: { status: 'in_progress' },
    });

    // A closing state closes each finding's open violations and stops each clock.
    clockAt = at(5 * DAY);
    const closed = await bulk(bearer(admin), {
      finding_ids: [fresh, running],
      status: 'fixed',
    }).expect(200);
    expect(closed.body.data).toEqual({ matched: 2, changed: 2, violations_closed: 1 });
    expect(
      await sql(`SELECT resolution, resolved_at FROM sla_violations WHERE finding_id = $1`, [
        running,
      ]),
    ).toEqual([{ resolution: 'finding_closed', resolved_at: at(5 * DAY) }]);
    expect((await stateOf([fresh, running])).map((r) => r['sla_due_at'])).toEqual([null, null]);
  });

  it('refuses waiting with 400 bulk_waiting_refused and changes nothing', async () => {
    const own = await freshProduct(t, admin);
    const ids = await seedFindings(t, own, [{ status: 'in_progress' }, { status: 'confirmed' }]);
    const before = await stateOf(ids);
    const logBefore = await logOf(ids);
    for (const body of [
      { finding_ids: ids, status: 'waiting' },
      {
        finding_ids: ids,
        status: 'waiting',
        waiting_reason: 'vendor patch',
        waiting_until: iso(5 * DAY),
      },
      { filters: { product_id: own.id }, status: 'waiting' },
    ]) {
      const res = await bulk(bearer(admin), body).expect(400);
      expect(res.body.code).toMatch(/^(bulk_waiting_refused|validation_failed)$/);
    }
    const refused = await bulk(bearer(admin), { finding_ids: ids, status: 'waiting' }).expect(400);
    expect(refused.body).toMatchObject({ code: 'bulk_waiting_refused' });
    expect(await stateOf(ids)).toEqual(before);
    expect(await logOf(ids)).toEqual(logBefore);
  });

  it('risk_accepted needs a future review date; with it every finding gets the date', async () => {
    const own = await freshProduct(t, admin);
    const ids = await seedFindings(t, own, [{ status: 'new' }, { status: 'confirmed' }]);
    clockAt = at(0);
    expect(
      (await bulk(bearer(admin), { finding_ids: ids, status: 'risk_accepted' }).expect(400)).body
        .code,
    ).toBe('risk_accepted_until_required');
    expect(
      (
        await bulk(bearer(admin), {
          finding_ids: ids,
          status: 'risk_accepted',
          risk_accepted_until: iso(-DAY),
        }).expect(400)
      ).body.code,
    ).toBe('risk_accepted_until_invalid');
    expect(
      (
        await bulk(bearer(admin), {
          finding_ids: ids,
          status: 'fixed',
          risk_accepted_until: iso(DAY),
        }).expect(400)
      ).body.code,
    ).toBe('triage_field_status_mismatch');
    await bulk(bearer(admin), {
      finding_ids: ids,
      status: 'risk_accepted',
      risk_accepted_until: iso(60 * DAY),
      justification: 'compensating control',
    }).expect(200);
    expect((await stateOf(ids)).map((r) => [r['status'], r['risk_accepted_until']])).toEqual([
      ['risk_accepted', at(60 * DAY)],
      ['risk_accepted', at(60 * DAY)],
    ]);
  });

  it('selects by q and filters as the list does, within what the caller may write', async () => {
    const own = await freshProduct(t, admin);
    const [critical, high, low] = await seedFindings(t, own, [
      { severity: 'CRITICAL', status: 'new' },
      { severity: 'HIGH', status: 'new' },
      { severity: 'LOW', status: 'new' },
    ]);
    const res = await bulk(bearer(admin), {
      q: 'severity:critical|high',
      filters: { product_id: own.id },
      status: 'confirmed',
    }).expect(200);
    expect(res.body.data).toMatchObject({ matched: 2, changed: 2 });
    expect((await stateOf([critical, high, low])).map((r) => [r['id'], r['status']])).toEqual(
      [
        [critical, 'confirmed'],
        [high, 'confirmed'],
        [low, 'new'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(
      (await bulk(bearer(admin), { q: 'severity:', status: 'fixed' }).expect(400)).body.code,
    ).toBe('query_syntax_error');
    expect((await bulk(bearer(admin), { status: 'fixed' }).expect(400)).body.code).toBe(
      'bulk_selection_required',
    );

    // A viewer of the project and an analyst of another project change nothing.
    const viewer = await freshMember(t, admin, own.project_id, 'viewer');
    const other = await freshProduct(t, admin);
    const elsewhere = await freshMember(t, admin, other.project_id, 'analyst');
    for (const caller of [viewer, elsewhere]) {
      const none = await bulk(bearer(caller), { finding_ids: [low], status: 'fixed' }).expect(200);
      expect(none.body.data).toEqual({ matched: 0, changed: 0, violations_closed: 0 });
    }
    const analyst = await freshMember(t, admin, own.project_id, 'analyst');
    await bulk(bearer(analyst), { finding_ids: [low], status: 'fixed' }).expect(200);
    expect((await stateOf([low]))[0]).toMatchObject({ status: 'fixed' });
  });

  it('writes each entry exactly: state fields and deadlines only where the finding has them', async () => {
    const own = await freshProduct(t, admin);
    const [plain, running, accepted, waiting] = await seedFindings(t, own, [
      { severity: 'HIGH', status: 'new', sla_days: 14 },
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
      { severity: 'HIGH', status: 'confirmed', sla_days: 14 },
    ]);
    clockAt = at(0);
    await patch(running, { status: 'in_progress' });
    await patch(accepted, {
      status: 'risk_accepted',
      risk_accepted_until: iso(30 * DAY),
      justification: 'first review',
    });
    await patch(waiting, {
      status: 'waiting',
      waiting_reason: 'vendor patch',
      waiting_until: iso(10 * DAY),
    });

    clockAt = at(DAY);
    const res = await bulk(bearer(admin), {
      finding_ids: [plain, running, accepted, waiting],
      status: 'risk_accepted',
      risk_accepted_until: iso(40 * DAY),
      justification: 'accepted for the quarter',
    }).expect(200);
    expect(res.body.data).toEqual({ matched: 4, changed: 4, violations_closed: 0 });
    const entries = new Map(
      (await logOf([plain, running, accepted, waiting]))
        .filter((e) => (e['at'] as Date).getTime() === at(DAY).getTime())
        .map((e) => [e['finding_id'], [e['action'], e['from_value'], e['to_value']]]),
    );
    const to = {
      status: 'risk_accepted',
      risk_accepted_until: iso(40 * DAY),
      justification: 'accepted for the quarter',
    };
    expect(Object.fromEntries(entries)).toEqual({
      [plain]: ['status_changed', { status: 'new' }, to],
      // The pause does not move the deadline: it is in neither side (no "14 d -> 14 d").
      [running]: ['status_changed', { status: 'in_progress' }, to],
      [accepted]: [
        'triage_updated',
        { status: 'risk_accepted', risk_accepted_until: iso(30 * DAY) },
        to,
      ],
      [waiting]: [
        'status_changed',
        { status: 'waiting', waiting_reason: 'vendor patch', waiting_until: iso(10 * DAY) },
        to,
      ],
    });
  });

  it('changes nothing when the selection holds more findings than the limit', async () => {
    const own = await freshProduct(t, admin);
    const ids = await seedFindings(t, own, [{}, {}, {}, {}]);
    const before = await stateOf(ids);
    const logBefore = await logOf(ids);
    const repository = t.app.get(BulkStatusRepository);
    const change = (max: number) =>
      repository.apply(
        { all: true },
        toBulkTarget({ filters: { product_id: own.id } }),
        planBulkTransition('confirmed', {}, at(0)),
        { type: 'user', id: admin.userId, label: 'limit-check' },
        at(0),
        max,
      );
    expect(await change(3)).toBeUndefined();
    expect(await stateOf(ids)).toEqual(before);
    expect(await logOf(ids)).toEqual(logBefore);
    expect(await change(4)).toEqual({ matched: 4, changed: 4, violationsClosed: 0 });
    expect((await stateOf(ids)).map((r) => r['status'])).toEqual(ids.map(() => 'confirmed'));
  });

  it('is for user tokens only: a key with write_findings is refused', async () => {
    const key = await keyWith(t, admin, [
      { permission: 'write_findings', level: 'global' },
      { permission: 'read_findings', level: 'global' },
    ]);
    const [id] = await seedFindings(t, product, [{ status: 'new' }]);
    const res = await bulk(key, { finding_ids: [id], status: 'confirmed' }).expect(403);
    expect(res.body.code).toBe('access_denied');
    expect((await stateOf([id]))[0]).toMatchObject({ status: 'new' });
  });
});
