import { sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { issueCertificate, issuedDevice, reenroll } from '../fixtures/issue';
import { bundleOf, verifyBundle } from './issuance-support';

describe('Certificates - /api/v1/certificates (list), /{serial}, /bundle, /key-protection (GET, PUT)', () => {
  let t: TestApp;
  let admin: TestUser;
  let serial: string;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    serial = (await issuedDevice(t, admin.accessToken)).certificateSerial;
  });
  afterAll(() => t.close());

  it('serves a ZIP bundle without private key whose chain verifies, to every reading role', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const bundle = await bundleOf(t, viewer.accessToken, serial);
    expect(Object.values(bundle).join('')).not.toContain('PRIVATE KEY');
    expect(bundle['fullchain.pem'].startsWith(bundle['certificate.pem'])).toBe(true);
    expect(verifyBundle(bundle).ok).toBe(true);
    await t.http
      .get(`/api/v1/certificates/${serial.toUpperCase()}/bundle`)
      .set(...bearer(admin.accessToken))
      .expect(200);
    await t.http
      .get('/api/v1/certificates/abcd/bundle')
      .set(...bearer(admin.accessToken))
      .expect(404);
  });

  it('sets the key-protection level (cert-admin, audited, validated)', async () => {
    const res = await t.http
      .put(`/api/v1/certificates/${serial}/key-protection`)
      .set(...bearer(admin.accessToken))
      .send({ level: 'required' })
      .expect(200);
    expect(res.body).toMatchObject({ serial, key_protection: 'required' });
    const [row] = await sql<{ key_protection: string }>(
      t,
      `SELECT key_protection FROM certificates WHERE serial = $1`,
      [serial],
    );
    expect(row.key_protection).toBe('required');
    const [audit] = await sql<{ details: Record<string, string> }>(
      t,
      `SELECT details FROM audit_log WHERE action = 'certificate.key_protection_change' AND target = $1`,
      [serial],
    );
    expect(audit.details).toEqual({ old: 'none', new: 'required' });
    await t.http
      .put(`/api/v1/certificates/${serial}/key-protection`)
      .set(...bearer(admin.accessToken))
      .send({ level: 'max' })
      .expect(400);
    await t.http
      .put('/api/v1/certificates/abcd/key-protection')
      .set(...bearer(admin.accessToken))
      .send({ level: 'prompt' })
      .expect(404);
  });

  it('lists certificates newest first with filters and pages, and describes one', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const first = await issuedDevice(t, admin.accessToken);
    const renewal = await issueCertificate(t, admin.accessToken, await reenroll(t, first));
    const list = (query: Record<string, string | number>, status = 200) =>
      t.http
        .get('/api/v1/certificates')
        .query(query)
        .set(...bearer(viewer.accessToken))
        .expect(status);
    const ofDevice = await list({ device: first.serial });
    expect(ofDevice.body).toMatchObject({ page: 1, limit: 50, total: 2 });
    const items = (ofDevice.body as { items: Record<string, unknown>[] }).items;
    expect(items.map((c) => c.serial)).toEqual([renewal, first.certificateSerial]);
    expect(items[1]).toMatchObject({
      device_serial: first.serial,
      purpose: 'wifi',
      status: 'active',
      superseded_by: renewal,
      issuer_kind: 'built_in',
    });
    expect(items[1]).not.toHaveProperty('der');
    const second = await list({ device: first.serial, limit: 1, page: 2 });
    expect((second.body as { items: { serial: string }[] }).items.map((c) => c.serial)).toEqual([
      first.certificateSerial,
    ]);
    const byPrefix = await list({ serial: renewal.slice(0, 12).toUpperCase(), status: 'active' });
    expect((byPrefix.body as { items: { serial: string }[] }).items.map((c) => c.serial)).toEqual([
      renewal,
    ]);
    expect((await list({ device: first.serial, status: 'revoked' })).body).toMatchObject({
      total: 0,
    });
    await list({ serial: 'xyz' }, 400);
    await list({ status: 'gone' }, 400);
    await list({ limit: 501 }, 400);
    const one = await t.http
      .get(`/api/v1/certificates/${renewal.toUpperCase()}`)
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(one.body).toMatchObject({ serial: renewal, device_serial: first.serial });
    await t.http
      .get('/api/v1/certificates/abcd')
      .set(...bearer(viewer.accessToken))
      .expect(404);
  });
});
