import request from 'supertest';
import { DataSource } from 'typeorm';
import { addMember, Auth, bearer } from '../support/catalog';
import { Product, seedFindings, startWithProduct } from '../support/findings-seed';
import { freshUser, login, Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

/**
 * Decisions carry their reason and the action log reads as a history (issue 25): a
 * justification for risk acceptance, false positive and won't fix (single and bulk), the
 * decision shown on the finding, people by name, and no entry for a change that changes nothing.
 */
let t: TestApp;
let admin: Login;
let product: Product;

beforeAll(async () => {
  ({ t, admin, product } = await startWithProduct());
});
afterAll(() => t.close());

const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const patch = (auth: Auth, id: string, body: Record<string, unknown>) =>
  auth.apply(request(t.url).patch(`/api/v1/findings/${id}`).send(body));
const bulk = (body: Record<string, unknown>) =>
  bearer(admin).apply(request(t.url).post('/api/v1/findings/bulk-status').send(body));
const get = async (id: string) =>
  (
    await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}`))
      .expect(200)
  ).body.data;
type Entry = {
  action: string;
  actor: { type: string; id: string | null; label: string; name: string | null };
  from: Record<string, unknown> | null;
  to: Record<string, unknown> | null;
};
const actions = async (id: string): Promise<Entry[]> =>
  (
    await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}/actions`))
      .expect(200)
  ).body.data;

async function namedMember(name: string) {
  const user = await freshUser(t, admin);
  await t.app
    .get(DataSource)
    .query(`UPDATE users SET display_name = $2 WHERE id = $1`, [user.id, name]);
  const signed = await login(t, user.email, user.password);
  await addMember(t, bearer(admin), product.project_id, signed.userId, 'analyst');
  return { ...signed, email: user.email, name };
}

describe('Decisions - /api/v1/findings/{id} (PATCH), bulk-status (POST)', () => {
  it.each(['false_positive', 'wont_fix', 'risk_accepted'])(
    'a move into %s needs a justification; nothing changes without one',
    async (status) => {
      const [id] = await seedFindings(t, product, [{ status: 'confirmed' }]);
      const extra = status === 'risk_accepted' ? { risk_accepted_until: days(30) } : {};
      for (const justification of [undefined, '', '   ']) {
        const res = await patch(bearer(admin), id!, { status, ...extra, justification }).expect(
          400,
        );
        expect(res.body.code).toBe('justification_required');
      }
      expect((await get(id!)).status).toBe('confirmed');
      expect(await actions(id!)).toEqual([]);
      const ok = await patch(bearer(admin), id!, {
        status,
        ...extra,
        justification: '  only reachable from the VPN  ',
      }).expect(200);
      expect(ok.body.data.status).toBe(status);
      const log = await actions(id!);
      expect(log[log.length - 1]).toMatchObject({
        action: 'status_changed',
        to: { status, justification: 'only reachable from the VPN' },
      });
    },
  );

  it('shows who accepted the risk, when and why, until when; a new date needs a new reason', async () => {
    const accepter = await namedMember('Dana Risk');
    const [id] = await seedFindings(t, product, [{ status: 'new' }]);
    expect((await get(id!)).status_decision).toBeNull();
    const until = days(60);
    const res = await patch(bearer(accepter), id!, {
      status: 'risk_accepted',
      risk_accepted_until: until,
      justification: 'compensating control: WAF rule 913',
    }).expect(200);
    const decision = {
      status: 'risk_accepted',
      at: expect.any(String),
      actor: { type: 'user', id: accepter.userId, label: accepter.email, name: 'Dana Risk' },
      justification: 'compensating control: WAF rule 913',
    };
    expect(res.body.data).toMatchObject({ risk_accepted_until: until, status_decision: decision });
    expect((await get(id!)).status_decision).toEqual(decision);
    const later = days(90);
    expect(
      (await patch(bearer(admin), id!, { risk_accepted_until: later }).expect(400)).body.code,
    ).toBe('justification_required');
    await patch(bearer(admin), id!, {
      risk_accepted_until: later,
      justification: 'extended after review',
    }).expect(200);
    expect((await get(id!)).status_decision).toMatchObject({
      status: 'risk_accepted',
      actor: { id: admin.userId },
      justification: 'extended after review',
    });
    // Leaving the state: the decision is the move out of it.
    await patch(bearer(admin), id!, { status: 'confirmed' }).expect(200);
    expect((await get(id!)).status_decision).toMatchObject({
      status: 'confirmed',
      justification: null,
    });
  });

  it('bulk: renewed is not settable, decisions need one justification written to every finding', async () => {
    const ids = (await seedFindings(t, product, [
      { status: 'new' },
      { status: 'confirmed' },
    ])) as string[];
    expect((await bulk({ finding_ids: ids, status: 'renewed' }).expect(400)).body.code).toBe(
      'status_not_settable',
    );
    expect((await bulk({ finding_ids: ids, status: 'false_positive' }).expect(400)).body.code).toBe(
      'justification_required',
    );
    expect((await get(ids[0]!)).status).toBe('new');
    await bulk({
      finding_ids: ids,
      status: 'false_positive',
      justification: 'test fixtures',
    }).expect(200);
    for (const id of ids) {
      expect((await get(id)).status_decision).toMatchObject({
        status: 'false_positive',
        justification: 'test fixtures',
      });
    }
  });

  it('PATCH to renewed is refused; leaving renewed by hand stays allowed', async () => {
    const [id] = await seedFindings(t, product, [{ status: 'renewed' }]);
    expect((await patch(bearer(admin), id!, { status: 'renewed' }).expect(400)).body.code).toBe(
      'status_not_settable',
    );
    await patch(bearer(admin), id!, { status: 'confirmed' }).expect(200);
  });
});

describe('Action log as a history - /api/v1/findings/{id}/actions (GET)', () => {
  it('names people: the actor by display name, every assignee_id with its assignee', async () => {
    const alice = await namedMember('Alice Analyst');
    const bob = await namedMember('Bob Builder');
    const [id] = await seedFindings(t, product, [{}]);
    await patch(bearer(alice), id!, { assignee_id: bob.userId }).expect(200);
    await patch(bearer(alice), id!, { assignee_id: alice.userId }).expect(200);
    const log = await actions(id!);
    expect(log.map((e) => e.action)).toEqual(['assigned', 'assigned']);
    expect(log[0]).toMatchObject({
      actor: { type: 'user', id: alice.userId, label: alice.email, name: 'Alice Analyst' },
      from: { assignee_id: null, assignee: null },
      to: {
        assignee_id: bob.userId,
        assignee: { id: bob.userId, email: bob.email, display_name: 'Bob Builder' },
      },
    });
    expect(log[1]).toMatchObject({
      from: { assignee: { email: bob.email } },
      to: { assignee: { email: alice.email, display_name: 'Alice Analyst' } },
    });
  });

  it('a change that changes nothing writes no entry; a pause that keeps the deadline shows none', async () => {
    const [id] = await seedFindings(t, product, [{ status: 'confirmed', sla_days: 30 }]);
    await patch(bearer(admin), id!, { status: 'in_progress' }).expect(200);
    const started = await actions(id!);
    expect(started).toHaveLength(1);
    const due = (await get(id!)).sla_due_at as string;
    expect(started[0]!.to).toMatchObject({ status: 'in_progress', sla_due_at: due });
    // The same values again: nothing to log.
    await patch(bearer(admin), id!, { status: 'in_progress', assignee_id: null }).expect(200);
    expect(await actions(id!)).toHaveLength(1);
    // Pausing does not move the deadline: no "deadline: x -> x" in the entry.
    await patch(bearer(admin), id!, {
      status: 'waiting',
      waiting_reason: 'vendor patch',
      waiting_until: days(5),
    }).expect(200);
    const paused = (await actions(id!))[1]!;
    expect(paused.from).toEqual({ status: 'in_progress' });
    expect(paused.to).not.toHaveProperty('sla_due_at');
    // Stopping ends the deadline: it shows on the side that had it.
    await patch(bearer(admin), id!, { status: 'fixed' }).expect(200);
    const stopped = (await actions(id!))[2]!;
    expect(stopped.from).toHaveProperty('sla_due_at');
    expect(stopped.to).toEqual({ status: 'fixed' });
  });
});
