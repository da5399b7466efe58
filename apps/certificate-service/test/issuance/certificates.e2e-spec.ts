import { sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { issuedDevice } from '../fixtures/issue';
import { bundleOf, verifyBundle } from './issuance-support';

describe('Certificates - /api/v1/certificates/{serial}/bundle, /key-protection (GET, PUT)', () => {
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
});
