import { enrollDevice, nonce, sql, startEnrollApp } from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

describe('Device administration - /api/v1/devices* and /api/v1/admin/purpose-overrides/* (GET, PUT, POST, DELETE)', () => {
  let t: TestApp;
  let admin: TestUser;
  let viewer: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    viewer = await createUser(t, admin, ['cert-viewer']);
  });
  afterAll(() => t.close());

  const auditOf = async (action: string) =>
    (
      await t.http
        .get(`/api/v1/audit?action=${action}`)
        .set(...bearer(admin.accessToken))
        .expect(200)
    ).body.items as { target: string; details: Record<string, unknown> }[];

  it('lists devices with filters and paging, and exports CSV', async () => {
    const a = await enrollDevice(t, { serial: `LIST-A-${Date.now()}` });
    await enrollDevice(t, {
      serial: `LIST-B-${Date.now()}`,
      extra: { platform: 'macos', agent_version: '3.0.0' },
    });
    const all = await t.http
      .get('/api/v1/devices?serial=list-&limit=1')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(all.body).toMatchObject({ page: 1, limit: 1, total: 2 });
    expect(all.body.items).toHaveLength(1);
    const mac = await t.http
      .get('/api/v1/devices?platform=macos&serial=LIST')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(mac.body.items.map((d: { serial: string }) => d.serial)).not.toContain(a.serial);
    expect(mac.body.items[0]).toMatchObject({
      platform: 'macos',
      agent_version: '3.0.0',
      assigned_purposes: ['wifi'],
      blocked: false,
      enroll_key_pinned: true,
      identity_key: expect.stringMatching(/^sn:/),
    });
    expect(mac.body.items[0]).not.toHaveProperty('enrollment_token_hash');
    await t.http
      .get('/api/v1/devices?blocked=maybe')
      .set(...bearer(viewer.accessToken))
      .expect(400);
    const csv = await t.http
      .get(`/api/v1/devices.csv?serial=${a.serial}`)
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text.split('\r\n')[1]).toContain(a.serial);
  });

  it('counts agent versions', async () => {
    await enrollDevice(t, { extra: { agent_version: '9.9.9' } });
    const res = await t.http
      .get('/api/v1/devices/agent-versions')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(res.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ agent_version: '9.9.9', devices: 1 })]),
    );
  });

  it('assigns purposes and changes the owner, audited with old and new values', async () => {
    const d = await enrollDevice(t);
    const res = await t.http
      .put(`/api/v1/devices/${d.serial}/purposes`)
      .set(...bearer(admin.accessToken))
      .send({ purposes: ['vpn', 'wifi'] })
      .expect(200);
    expect(res.body).toEqual({
      serial: d.serial,
      assigned: ['wifi', 'vpn'],
      overrides: {},
      effective: ['wifi', 'vpn'],
    });
    expect((await auditOf('device.purposes_change'))[0]).toMatchObject({
      target: d.serial,
      details: { old: ['wifi'], new: ['wifi', 'vpn'] },
    });
    await t.http
      .put(`/api/v1/devices/${d.serial}/purposes`)
      .set(...bearer(admin.accessToken))
      .send({ purposes: ['nope'] })
      .expect(400);
    const owner = await t.http
      .put(`/api/v1/devices/${d.serial}/owner`)
      .set(...bearer(admin.accessToken))
      .send({ owner: 'alice@example.com' })
      .expect(200);
    expect(owner.body.owner).toBe('alice@example.com');
    await t.http
      .put(`/api/v1/devices/${d.serial}/owner`)
      .set(...bearer(admin.accessToken))
      .send({ owner: null })
      .expect(200);
    expect((await auditOf('device.owner_change'))[0].details).toEqual({
      old: 'alice@example.com',
      new: null,
    });
    expect(
      (
        await t.http
          .put('/api/v1/devices/NO-SUCH-DEVICE/owner')
          .set(...bearer(admin.accessToken))
          .send({ owner: 'x' })
          .expect(404)
      ).body.code,
    ).toBe('device_not_found');
  });

  it('sets overrides, reports the cost of a reset and resets them fleet-wide', async () => {
    const d1 = await enrollDevice(t);
    const d2 = await enrollDevice(t);
    await t.http
      .put(`/api/v1/devices/${d1.serial}/purpose-overrides`)
      .set(...bearer(admin.accessToken))
      .send({ overrides: { k8s: 'allow', wifi: 'deny' } })
      .expect(200);
    const res = await t.http
      .put(`/api/v1/devices/${d2.serial}/purpose-overrides`)
      .set(...bearer(admin.accessToken))
      .send({ overrides: { k8s: 'deny' } })
      .expect(200);
    expect(res.body.overrides).toEqual({ k8s: 'deny' });
    const back = await t.http
      .put(`/api/v1/devices/${d1.serial}/purpose-overrides`)
      .set(...bearer(admin.accessToken))
      .send({ overrides: { wifi: 'inherit' } })
      .expect(200);
    expect(back.body).toMatchObject({ overrides: { k8s: 'allow' }, effective: ['wifi', 'k8s'] });
    await t.http
      .put(`/api/v1/devices/${d1.serial}/purpose-overrides`)
      .set(...bearer(admin.accessToken))
      .send({ overrides: { k8s: 'maybe' } })
      .expect(400);
    const cost = await t.http
      .get('/api/v1/admin/purpose-overrides/k8s/cost')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(cost.body).toEqual({ purpose: 'k8s', devices: 2, allow: 1, deny: 1 });
    await t.http
      .delete('/api/v1/admin/purpose-overrides/k8s')
      .set(...bearer(viewer.accessToken))
      .expect(403);
    expect(
      (
        await t.http
          .delete('/api/v1/admin/purpose-overrides/k8s')
          .set(...bearer(admin.accessToken))
          .expect(200)
      ).body,
    ).toEqual({ purpose: 'k8s', reset: 2 });
    expect(
      (
        await t.http
          .get('/api/v1/admin/purpose-overrides/k8s/cost')
          .set(...bearer(admin.accessToken))
          .expect(200)
      ).body.devices,
    ).toBe(0);
    expect((await auditOf('purpose_overrides.reset'))[0]).toMatchObject({
      target: 'k8s',
      details: { removed: 2 },
    });
  });

  it('rotates the enrollment token: the old one stops working, the new one works', async () => {
    const d = await enrollDevice(t);
    const res = await t.http
      .post(`/api/v1/devices/${d.serial}/rotate-enrollment-token`)
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(res.body.enrollment_token).toMatch(/^wet_/);
    const enroll = async (token: string) =>
      t.http.post('/api/v1/enroll').send({
        csr: opensslCsr('ec', d.serial).csrPem,
        serial: d.serial,
        nonce: await nonce(t),
        enrollment_token: token,
      });
    expect((await enroll(d.enrollmentToken)).status).toBe(401);
    expect((await enroll(res.body.enrollment_token)).status).toBe(201);
    expect((await auditOf('device.enrollment_token_rotate'))[0].target).toBe(d.serial);
  });

  it('releases pinned keys and the TPM binding, each audited', async () => {
    const d = await enrollDevice(t);
    await sql(
      t,
      `UPDATE devices SET tpm_ek_cert_serial = '0a1b', tpm_ak_public = '\\x0102', continuity_key = 'ck' WHERE serial = $1`,
      [d.serial],
    );
    const route = (r: string) =>
      t.http.post(`/api/v1/devices/${d.serial}/${r}`).set(...bearer(admin.accessToken));
    expect((await route('release-tpm-pin').expect(200)).body).toMatchObject({
      tpm_pinned: false,
      tpm_bound: true,
    });
    expect((await route('unbind-tpm').expect(200)).body).toMatchObject({ tpm_bound: false });
    expect((await route('release-enroll-key').expect(200)).body.enroll_key_pinned).toBe(false);
    expect((await route('release-continuity-key').expect(200)).body.continuity_key_set).toBe(false);
    for (const action of [
      'device.tpm_pin_release',
      'device.tpm_unbind',
      'device.enroll_key_release',
      'device.continuity_key_release',
    ]) {
      expect((await auditOf(action))[0].target).toBe(d.serial);
    }
    await t.http
      .post('/api/v1/devices/NO-SUCH/unbind-tpm')
      .set(...bearer(admin.accessToken))
      .expect(404);
  });
});
