import request from 'supertest';
import { addMember, Auth, bearer } from '../support/catalog';
import {
  freshLogin,
  freshProduct,
  keyWith,
  Product,
  seedFindings,
  uuid,
  startWithProduct,
} from '../support/findings-seed';
import { Login } from '../support/sessions';
import { TestApp } from '../support/test-app';

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
const actions = async (id: string) =>
  (
    await bearer(admin)
      .apply(request(t.url).get(`/api/v1/findings/${id}/actions`))
      .expect(200)
  ).body.data as {
    action: string;
    actor: { type: string; id: string | null; label: string };
    from: unknown;
    to: unknown;
  }[];
const one = () => seedFindings(t, product, [{}]).then(([id]) => id);

describe('Update finding - /api/v1/findings/{id} (PATCH)', () => {
  it('changes status, assignee and comment; writes one entry per change with the actor', async () => {
    const id = await one();
    const res = await patch(bearer(admin), id, {
      status: 'confirmed',
      assignee_id: admin.userId,
      comment: 'reproduced',
    }).expect(200);
    expect(res.body.data).toMatchObject({
      id,
      status: 'confirmed',
      assignee_id: admin.userId,
      comment: 'reproduced',
    });
    expect(res.body.data.status_changed_at).toEqual(expect.any(String));
    const log = await actions(id);
    expect(log.map((a) => a.action)).toEqual(['status_changed', 'assigned', 'triage_updated']);
    expect(log[0]).toMatchObject({
      actor: { type: 'user', id: admin.userId },
      from: { status: 'new' },
      to: { status: 'confirmed' },
    });
    // Same values again: nothing changes, nothing is logged.
    await patch(bearer(admin), id, { status: 'confirmed', comment: 'reproduced' }).expect(200);
    expect(await actions(id)).toHaveLength(3);
  });

  it('accepts any state but renewed by hand (decisions with their justification)', async () => {
    const id = await one();
    for (const status of [
      'in_progress',
      'fixed',
      'needs_review',
      'false_positive',
      'wont_fix',
      'new',
    ]) {
      expect(
        (await patch(bearer(admin), id, { status, justification: 'why' }).expect(200)).body.data
          .status,
      ).toBe(status);
    }
    const refused = await patch(bearer(admin), id, { status: 'renewed' }).expect(400);
    expect(refused.body.code).toBe('status_not_settable');
  });

  it('risk_accepted needs a future risk_accepted_until', async () => {
    const id = await one();
    expect(
      (await patch(bearer(admin), id, { status: 'risk_accepted' }).expect(400)).body.code,
    ).toBe('risk_accepted_until_required');
    expect(
      (
        await patch(bearer(admin), id, {
          status: 'risk_accepted',
          risk_accepted_until: days(-1),
        }).expect(400)
      ).body.code,
    ).toBe('risk_accepted_until_invalid');
    expect(
      (await patch(bearer(admin), id, { risk_accepted_until: days(10) }).expect(400)).body.code,
    ).toBe('triage_field_status_mismatch');
    const until = days(90);
    const ok = await patch(bearer(admin), id, {
      status: 'risk_accepted',
      risk_accepted_until: until,
      justification: 'mitigated by the WAF',
    }).expect(200);
    expect(ok.body.data).toMatchObject({ status: 'risk_accepted', risk_accepted_until: until });
    // Leaving the state clears the date.
    const back = await patch(bearer(admin), id, { status: 'confirmed' }).expect(200);
    expect(back.body.data.risk_accepted_until).toBeNull();
  });

  it('waiting needs a reason and a date at most 30 days ahead', async () => {
    const id = await one();
    await patch(bearer(admin), id, { status: 'in_progress' }).expect(200);
    const missing = await patch(bearer(admin), id, {
      status: 'waiting',
      waiting_until: days(5),
    }).expect(400);
    expect(missing.body.code).toBe('waiting_fields_required');
    const tooFar = await patch(bearer(admin), id, {
      status: 'waiting',
      waiting_reason: 'vendor patch',
      waiting_until: days(31),
    }).expect(400);
    expect(tooFar.body.code).toBe('waiting_until_invalid');
    const past = await patch(bearer(admin), id, {
      status: 'waiting',
      waiting_reason: 'vendor patch',
      waiting_until: days(-1),
    }).expect(400);
    expect(past.body.code).toBe('waiting_until_invalid');
    const until = days(29);
    const ok = await patch(bearer(admin), id, {
      status: 'waiting',
      waiting_reason: 'vendor patch',
      waiting_until: until,
    }).expect(200);
    expect(ok.body.data).toMatchObject({
      status: 'waiting',
      waiting_reason: 'vendor patch',
      waiting_until: until,
    });
    const log = await actions(id);
    expect(log[log.length - 1]).toMatchObject({
      action: 'status_changed',
      from: { status: 'in_progress' },
      to: { status: 'waiting', waiting_reason: 'vendor patch', waiting_until: until },
    });
  });

  it('refuses an assignee without access to the project and unknown fields', async () => {
    const id = await one();
    const outsider = await freshLogin(t, admin);
    expect(
      (await patch(bearer(admin), id, { assignee_id: outsider.userId }).expect(400)).body.code,
    ).toBe('assignee_invalid');
    expect((await patch(bearer(admin), id, { assignee_id: uuid() }).expect(400)).body.code).toBe(
      'assignee_invalid',
    );
    expect((await patch(bearer(admin), id, { status: 'done' }).expect(400)).body.code).toBe(
      'validation_failed',
    );
    expect((await patch(bearer(admin), id, { severity: 'LOW' }).expect(400)).body.code).toBe(
      'validation_failed',
    );
    await addMember(t, bearer(admin), product.project_id, outsider.userId, 'viewer');
    await patch(bearer(admin), id, { assignee_id: outsider.userId }).expect(200);
    expect(
      (await patch(bearer(admin), id, { assignee_id: null }).expect(200)).body.data.assignee_id,
    ).toBeNull();
  });

  it('users: analysts and admins of the project may; viewers 403; non-members 404', async () => {
    const id = await one();
    const analyst = await freshLogin(t, admin);
    const viewer = await freshLogin(t, admin);
    await addMember(t, bearer(admin), product.project_id, analyst.userId, 'analyst');
    await addMember(t, bearer(admin), product.project_id, viewer.userId, 'viewer');
    await patch(bearer(analyst), id, { status: 'confirmed' }).expect(200);
    expect((await patch(bearer(viewer), id, { status: 'new' }).expect(403)).body.code).toBe(
      'permission_denied',
    );
    const elsewhere = await freshLogin(t, admin);
    const other = await freshProduct(t, admin);
    await addMember(t, bearer(admin), other.project_id, elsewhere.userId, 'analyst');
    expect((await patch(bearer(elsewhere), id, { status: 'new' }).expect(404)).body.code).toBe(
      'finding_not_found',
    );
    expect((await patch(bearer(admin), uuid(), { status: 'new' }).expect(404)).body.code).toBe(
      'finding_not_found',
    );
  });

  it('keys: without write_findings 403; with it at project, product or global level 200', async () => {
    const id = await one();
    const reader = await keyWith(t, admin, [
      { permission: 'read_findings', level: 'project', product },
    ]);
    await patch(reader, id, { status: 'confirmed' }).expect(403);
    const otherProduct = await freshProduct(t, admin);
    const elsewhere = await keyWith(t, admin, [
      { permission: 'write_findings', level: 'product', product: otherProduct },
    ]);
    await patch(elsewhere, id, { status: 'confirmed' }).expect(404);
    for (const level of ['project', 'product', 'global'] as const) {
      const key = await keyWith(t, admin, [{ permission: 'write_findings', level, product }]);
      await patch(key, id, { comment: `by ${level} key` }).expect(200);
    }
    const log = await actions(id);
    expect(log[log.length - 1]).toMatchObject({
      action: 'triage_updated',
      actor: { type: 'service_account' },
      to: { comment: 'by global key' },
    });
  });
});
