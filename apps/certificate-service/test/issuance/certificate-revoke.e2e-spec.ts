import { sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { issuedDevice } from '../fixtures/issue';
import { bundleOf, crlText, servedCrlPem, verifyBundle } from './issuance-support';

describe('Revoke certificate - /api/v1/certificates/{serial}/revoke (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const crlNumber = (text: string) => Number(/X509v3 CRL Number:\s*\n\s*(\d+)/.exec(text)?.[1]);

  it('revokes, re-signs the CRL with a higher number, and openssl -crl_check rejects the certificate', async () => {
    const serial = (await issuedDevice(t, admin.accessToken)).certificateSerial;
    const bundle = await bundleOf(t, admin.accessToken, serial);
    const before = await servedCrlPem(t);
    expect(verifyBundle(bundle, before).ok).toBe(true);
    const beforeNumber = crlNumber(crlText(before));

    const res = await t.http
      .post(`/api/v1/certificates/${serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    expect(res.body).toMatchObject({
      serial,
      status: 'revoked',
      revocation_reason: 'keyCompromise',
    });

    const after = await servedCrlPem(t);
    const text = crlText(after);
    expect(crlNumber(text)).toBeGreaterThan(beforeNumber);
    expect(text).toContain(serial.toUpperCase());
    expect(text).toContain('Key Compromise');
    const verified = verifyBundle(bundle, after);
    expect(verified.ok).toBe(false);
    expect(verified.out).toContain('certificate revoked');

    const [audit] = await sql<{ actor: string }>(
      t,
      `SELECT actor FROM audit_log WHERE action = 'certificate.revoke' AND target = $1`,
      [serial],
    );
    expect(audit.actor).toBe(admin.email);
  });

  it('does not free the licence slot', async () => {
    const d = await issuedDevice(t, admin.accessToken);
    await t.http
      .post(`/api/v1/certificates/${d.certificateSerial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(200);
    const slots = await sql(t, `SELECT 1 FROM license_slots WHERE identity_key = $1`, [
      `sn:${d.serial}`,
    ]);
    expect(slots).toHaveLength(1);
  });

  it('answers a repeat with the revoked certificate and 404 for a serial unknown everywhere', async () => {
    const { certificateSerial } = await issuedDevice(t, admin.accessToken);
    const revoke = () =>
      t.http
        .post(`/api/v1/certificates/${certificateSerial}/revoke`)
        .set(...bearer(admin.accessToken))
        .send({});
    await revoke().expect(200);
    const again = await revoke().expect(200);
    expect(again.body).toMatchObject({ status: 'revoked' });
    const missing = await t.http
      .post('/api/v1/certificates/0badc0ffee/revoke')
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(404);
    expect(missing.body).toMatchObject({ code: 'certificate_not_found' });
    await t.http
      .post(`/api/v1/certificates/${certificateSerial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'bogus' })
      .expect(400);
  });
});
