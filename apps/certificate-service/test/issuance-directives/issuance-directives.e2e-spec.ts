import { randomUUID } from 'node:crypto';
import { enrollDevice, sql, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import { issueCertificate } from '../fixtures/issue';
import { loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('Issuance directives - /api/v1/admin/issuance-directives, /api/v1/devices/{serial}/issuance-directives, /api/v1/enroll/issuance-directives/{id}/report', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const auth = () => `Bearer ${admin.accessToken}`;
  const address = (serial: string, body: Record<string, unknown>) =>
    t.http
      .post(`/api/v1/devices/${encodeURIComponent(serial)}/issuance-directives`)
      .set('authorization', auth())
      .send(body);
  const ofDevice = (serial: string) =>
    t.http
      .get(`/api/v1/devices/${encodeURIComponent(serial)}/issuance-directives`)
      .set('authorization', auth());
  const queue = (query = '') =>
    t.http.get(`/api/v1/admin/issuance-directives${query}`).set('authorization', auth());
  const cancel = (id: string) =>
    t.http.delete(`/api/v1/admin/issuance-directives/${id}`).set('authorization', auth());
  const report = (id: string, secret: string, body: Record<string, unknown>) =>
    t.http
      .post(`/api/v1/enroll/issuance-directives/${id}/report`)
      .set('x-agent-secret', secret)
      .send(body);
  const checkin = (d: EnrolledDevice) =>
    t.http
      .post(`/api/v1/requests/${d.requestId}/checkin`)
      .set('x-agent-secret', d.agentSecret)
      .send({});

  /** A device whose first request is issued, so its agent can check in. */
  async function issued(): Promise<EnrolledDevice> {
    const d = await enrollDevice(t);
    await issueCertificate(t, admin.accessToken, d);
    return d;
  }

  it('delivers a directive through the next check-in, takes the report and shows it done in the queue', async () => {
    const d = await issued();
    const created = await address(d.serial, {
      purpose: 'user_mtls',
      user: 'Alice@Example.com',
    }).expect(201);
    expect(created.body).toMatchObject({
      serial: d.serial,
      purpose: 'user_mtls',
      user: 'alice@example.com',
      upn: null,
      state: 'pending',
      created_by: expect.stringContaining('admin'),
      delivered_at: null,
    });
    const id = created.body.id as string;

    const first = await checkin(d).expect(200);
    expect(first.body.installed_at).toEqual(expect.any(String));
    expect(first.body.issuance_directives).toEqual([
      {
        id,
        purpose: 'user_mtls',
        user: 'alice@example.com',
        upn: null,
        created_at: created.body.created_at,
      },
    ]);
    const delivered = (await ofDevice(d.serial).expect(200)).body.items[0];
    expect(delivered).toMatchObject({ id, state: 'delivered' });
    expect(delivered.delivered_at).toEqual(expect.any(String));

    // Still open: a lost answer is not lost work, the next check-in carries it again.
    expect(
      (await checkin(d).expect(200)).body.issuance_directives.map((x: { id: string }) => x.id),
    ).toEqual([id]);

    const done = await report(id, d.agentSecret, { outcome: 'done', message: 'installed' }).expect(
      200,
    );
    expect(done.body).toMatchObject({ id, state: 'done', message: 'installed' });
    expect((await checkin(d).expect(200)).body.issuance_directives).toEqual([]);

    const q = await queue('?state=done&limit=500').expect(200);
    expect(q.body.items.find((x: { id: string }) => x.id === id)).toMatchObject({
      state: 'done',
      serial: d.serial,
      message: 'installed',
    });
    expect(q.body).toMatchObject({ page: 1, limit: 500 });
    const [audit] = await sql<{ actor: string; target: string }>(
      t,
      `SELECT actor, target FROM audit_log WHERE action = 'issuance_directive.create' AND details->>'id' = $1`,
      [id],
    );
    expect(audit.target).toBe(d.serial);
  });

  it('answers an empty directive list at check-in when there is none', async () => {
    const d = await issued();
    expect((await checkin(d).expect(200)).body.issuance_directives).toEqual([]);
  });

  it('refuses a bad purpose or person with 400, an unknown device with 404, a blocked device with 403', async () => {
    const d = await enrollDevice(t);
    for (const body of [
      { purpose: 'wifi', user: 'a@example.com' },
      { purpose: 'ssh', user: 'a@example.com' },
      { purpose: 'user_mtls' },
      { purpose: 'user_mtls', user: 'not an email' },
      { purpose: 'user_mtls', user: `${'a'.repeat(320)}@example.com` },
      { purpose: 'user_mtls', user: 'a@example.com\u0000' },
      { purpose: 'ad_logon', user: 'a@example.com' },
      { purpose: 'ad_logon', user: 'a@example.com', upn: 'no-at-sign' },
    ]) {
      const res = await address(d.serial, body);
      expect([res.status, res.body.code]).toEqual([400, 'invalid_request']);
    }
    expect(
      (await address('NO-SUCH-SERIAL', { purpose: 'user_mtls', user: 'a@example.com' }).expect(404))
        .body.code,
    ).toBe('device_not_found');
    expect((await ofDevice('NO-SUCH-SERIAL').expect(404)).body.code).toBe('device_not_found');

    await sql(t, 'UPDATE devices SET blocked = true, blocked_at = now() WHERE serial = $1', [
      d.serial,
    ]);
    expect(
      (await address(d.serial, { purpose: 'user_mtls', user: 'a@example.com' }).expect(403)).body
        .code,
    ).toBe('device_blocked');
    expect((await ofDevice(d.serial).expect(200)).body.items).toEqual([]);
  });

  it('keeps one open directive per device, purpose and person (409), and allows a new one once closed', async () => {
    const d = await enrollDevice(t);
    const body = { purpose: 'ad_logon', user: 'bob@example.com', upn: 'bob@corp.example.com' };
    const first = await address(d.serial, body).expect(201);
    expect(first.body.upn).toBe('bob@corp.example.com');
    const again = await address(d.serial, { ...body, user: 'BOB@example.com' }).expect(409);
    expect(again.body.code).toBe('issuance_directive_exists');
    // Another person or another purpose on the same device is another directive.
    await address(d.serial, { purpose: 'user_mtls', user: 'bob@example.com' }).expect(201);
    await address(d.serial, {
      purpose: 'ad_logon',
      user: 'carol@example.com',
      upn: 'c@corp',
    }).expect(201);
    await cancel(first.body.id).expect(204);
    await address(d.serial, body).expect(201);
    const items = (await ofDevice(d.serial).expect(200)).body.items as { state: string }[];
    expect(items.map((x) => x.state).sort()).toEqual([
      'cancelled',
      'pending',
      'pending',
      'pending',
    ]);
  });

  it('holds one open directive under concurrent creates', async () => {
    const d = await enrollDevice(t);
    const body = { purpose: 'user_mtls', user: 'race@example.com' };
    const results = await Promise.all([1, 2, 3, 4].map(() => address(d.serial, body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it('cancels an open directive (audited, idempotent), refuses a reported one with 409 and an unknown id with 404', async () => {
    const d = await issued();
    const a = (await address(d.serial, { purpose: 'user_mtls', user: 'x@example.com' }).expect(201))
      .body.id as string;
    const b = (await address(d.serial, { purpose: 'user_mtls', user: 'y@example.com' }).expect(201))
      .body.id as string;
    await checkin(d).expect(200);
    await cancel(a).expect(204);
    await cancel(a).expect(204);
    const [row] = await sql<{ state: string; cancelled_by: string }>(
      t,
      'SELECT state, cancelled_by FROM issuance_directives WHERE id = $1',
      [a],
    );
    expect(row.state).toBe('cancelled');
    const audits = await sql(
      t,
      `SELECT 1 FROM audit_log WHERE action = 'issuance_directive.cancel' AND details->>'id' = $1`,
      [a],
    );
    expect(audits).toHaveLength(1);
    // A cancelled directive leaves the check-in answer.
    expect(
      (await checkin(d).expect(200)).body.issuance_directives.map((x: { id: string }) => x.id),
    ).toEqual([b]);

    await report(b, d.agentSecret, { outcome: 'failed', message: 'no smartcard' }).expect(200);
    expect((await cancel(b).expect(409)).body.code).toBe('issuance_directive_closed');
    expect((await cancel(randomUUID()).expect(404)).body.code).toBe('issuance_directive_not_found');
    expect((await cancel('not-a-uuid').expect(404)).body.code).toBe('issuance_directive_not_found');
  });

  it('takes a report only from the agent of the addressed device; idempotent for the same outcome; 409 otherwise', async () => {
    const d = await issued();
    const other = await issued();
    const id = (
      await address(d.serial, { purpose: 'user_mtls', user: 'z@example.com' }).expect(201)
    ).body.id as string;
    for (const res of [
      await report(id, other.agentSecret, { outcome: 'done' }),
      await report(id, 'wrong-secret', { outcome: 'done' }),
      await t.http
        .post(`/api/v1/enroll/issuance-directives/${id}/report`)
        .send({ outcome: 'done' }),
      await t.http
        .post(`/api/v1/enroll/issuance-directives/${id}/report`)
        .set('authorization', auth())
        .send({ outcome: 'done' }),
      await report(randomUUID(), d.agentSecret, { outcome: 'done' }),
      await report('not-a-uuid', d.agentSecret, { outcome: 'done' }),
    ]) {
      expect([res.status, res.body.code]).toEqual([401, 'agent_unauthorized']);
    }
    for (const body of [
      {},
      { outcome: 'cancelled' },
      { outcome: 'done', message: 'x'.repeat(1001) },
      { outcome: 'done', message: 7 },
    ]) {
      expect((await report(id, d.agentSecret, body).expect(400)).body.code).toBe('invalid_request');
    }
    // Any secret the device holds (a later request of the same device) is that device's agent.
    const renewal = await enrollDevice(t, {
      serial: d.serial,
      extra: { enrollment_token: d.enrollmentToken },
    });
    const msg = 'line one\nline two';
    const first = await report(id, renewal.agentSecret, { outcome: 'failed', message: msg }).expect(
      200,
    );
    expect(first.body).toMatchObject({ state: 'failed', message: msg });
    const retry = await report(id, d.agentSecret, { outcome: 'failed', message: 'other' }).expect(
      200,
    );
    expect(retry.body).toEqual(first.body);
    expect((await report(id, d.agentSecret, { outcome: 'done' }).expect(409)).body.code).toBe(
      'issuance_directive_closed',
    );

    const c = (await address(d.serial, { purpose: 'user_mtls', user: 'w@example.com' }).expect(201))
      .body.id as string;
    await cancel(c).expect(204);
    expect((await report(c, d.agentSecret, { outcome: 'done' }).expect(409)).body.code).toBe(
      'issuance_directive_cancelled',
    );
  });

  it('pages and filters the fleet-wide queue, newest first', async () => {
    const d = await enrollDevice(t);
    const ids: string[] = [];
    for (const user of ['p1@example.com', 'p2@example.com', 'p3@example.com']) {
      ids.push((await address(d.serial, { purpose: 'user_mtls', user }).expect(201)).body.id);
    }
    await cancel(ids[1]).expect(204);
    const pending = await queue('?state=pending&limit=500').expect(200);
    const pendingIds = pending.body.items.map((x: { id: string }) => x.id);
    expect(pendingIds).toEqual(expect.arrayContaining([ids[0], ids[2]]));
    expect(pendingIds).not.toContain(ids[1]);
    expect(pendingIds.indexOf(ids[2])).toBeLessThan(pendingIds.indexOf(ids[0]));
    const page = await queue('?limit=1&page=2').expect(200);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.total).toBeGreaterThanOrEqual(3);
    expect((await queue('?state=bogus').expect(400)).body.code).toBe('invalid_request');
    expect((await queue('?limit=0').expect(400)).body.code).toBe('invalid_request');
  });
});
