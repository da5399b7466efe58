import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { IssuerRegistry } from '../../src/modules/ca/issuer-registry';
import type { CertificateIssuer, RevocationReason, RevokeOutcome } from '@platform/pki';
import { approveRows, issueCertificate, issuedDevice, reenroll } from '../fixtures/issue';
import { bundleOf, servedCrlPem, verifyBundle } from './issuance-support';

/** The built-in issuer whose revoke fails for chosen serials (an unreachable external CA). */
function failingFor(inner: CertificateIssuer, failing: Set<string>): CertificateIssuer {
  return {
    kind: inner.kind,
    capabilities: () => inner.capabilities(),
    issue: (r) => inner.issue(r),
    issueMany: (r) => inner.issueMany(r),
    revoke: (serial: string, reason: RevocationReason): Promise<RevokeOutcome> =>
      failing.has(serial)
        ? Promise.reject(new Error('CA unreachable'))
        : inner.revoke(serial, reason),
  };
}

describe('Revoke device - /api/v1/devices/{serial}/revoke, /unblock, /users/{identity}/revoke-certs (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  async function deviceWithTwoCertificates() {
    const first = await issuedDevice(t, admin.accessToken);
    const renewal = await issueCertificate(t, admin.accessToken, await reenroll(t, first));
    return {
      serial: first.serial,
      token: first.enrollmentToken,
      serials: [first.certificateSerial, renewal],
    };
  }
  const revokeDevice = (serial: string) =>
    t.http
      .post(`/api/v1/devices/${serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({});
  const slotHeld = async (serial: string) =>
    (await sql(t, `SELECT 1 FROM license_slots WHERE identity_key = $1`, [`sn:${serial}`]))
      .length === 1;
  const blocked = async (serial: string) =>
    (
      await sql<{ blocked: boolean }>(t, `SELECT blocked FROM devices WHERE serial = $1`, [serial])
    )[0].blocked;

  it('revokes every active certificate, decommissions the slot, blocks and audits', async () => {
    const device = await deviceWithTwoCertificates();
    const bundle = await bundleOf(t, admin.accessToken, device.serials[0]);
    const res = await revokeDevice(device.serial).expect(200);
    expect(res.body).toMatchObject({
      serial: device.serial,
      status: 'revoked',
      blocked: true,
      slot_released: true,
    });
    expect((res.body as { certificates: unknown[] }).certificates).toHaveLength(2);
    expect(await slotHeld(device.serial)).toBe(false);
    expect(await blocked(device.serial)).toBe(true);
    expect(verifyBundle(bundle, await servedCrlPem(t)).ok).toBe(false);
    const audit = await sql(
      t,
      `SELECT 1 FROM audit_log WHERE action = 'device.revoke' AND target = $1`,
      [device.serial],
    );
    expect(audit).toHaveLength(1);
    // A request created during the block carries the flag and a person can still see it.
    const during = await enrollDevice(t, {
      serial: device.serial,
      extra: { enrollment_token: device.token },
    });
    const [flag] = await sql<{ registered_during_block: boolean }>(
      t,
      `SELECT registered_during_block FROM certificate_requests WHERE id = $1`,
      [during.requestId],
    );
    expect(flag.registered_during_block).toBe(true);
    await revokeDevice('NO-SUCH-DEVICE').expect(404);
  });

  it('answers 207 on partial failure without block or slot release, and a repeat completes', async () => {
    const device = await deviceWithTwoCertificates();
    const registry = t.app.get(IssuerRegistry);
    registry.use('wifi', failingFor(registry.builtIn(), new Set([device.serials[1]])));
    try {
      const partial = await revokeDevice(device.serial).expect(207);
      expect(partial.body).toMatchObject({
        status: 'partial',
        blocked: false,
        slot_released: false,
      });
      expect((partial.body as { certificates: unknown[] }).certificates).toEqual([
        { serial: device.serials[0], status: 'revoked' },
        { serial: device.serials[1], status: 'error', error: 'issuer_revoke_failed' },
      ]);
      expect(await slotHeld(device.serial)).toBe(true);
      expect(await blocked(device.serial)).toBe(false);
    } finally {
      registry.use('wifi', undefined);
    }
    const repeat = await revokeDevice(device.serial).expect(200);
    expect(repeat.body).toMatchObject({ status: 'revoked', blocked: true, slot_released: true });
    expect((repeat.body as { certificates: unknown[] }).certificates).toEqual([
      { serial: device.serials[1], status: 'revoked' },
    ]);
    expect(await slotHeld(device.serial)).toBe(false);
  });

  it('unblocks repeatably, audited, leaving pending requests untouched', async () => {
    const device = await deviceWithTwoCertificates();
    await revokeDevice(device.serial).expect(200);
    const pending = await enrollDevice(t, {
      serial: device.serial,
      extra: { enrollment_token: device.token },
    });
    for (let i = 0; i < 2; i++) {
      const res = await t.http
        .post(`/api/v1/devices/${device.serial}/unblock`)
        .set(...bearer(admin.accessToken))
        .send({})
        .expect(200);
      expect(res.body).toEqual({ serial: device.serial, blocked: false });
    }
    expect(await blocked(device.serial)).toBe(false);
    const [request] = await sql<{ status: string }>(
      t,
      `SELECT status FROM certificate_requests WHERE id = $1`,
      [pending.requestId],
    );
    expect(request.status).toBe('pending');
    const audit = await sql(
      t,
      `SELECT 1 FROM audit_log WHERE action = 'device.unblock' AND target = $1`,
      [device.serial],
    );
    expect(audit).toHaveLength(2);
    await t.http
      .post('/api/v1/devices/NO-SUCH/unblock')
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(404);
  });

  it('revokes every active certificate of a user', async () => {
    const d = await enrollDevice(t);
    await sql(t, `UPDATE devices SET assigned_purposes = '{wifi,user_mtls}' WHERE serial = $1`, [
      d.serial,
    ]);
    const { opensslCsr } = await import('../fixtures/openssl');
    const res = await t.http
      .post('/api/v1/enroll/user')
      .send({
        serial: d.serial,
        enrollment_token: d.enrollmentToken,
        csr: opensslCsr('ec', 'carol').csrPem,
        purpose: 'user_mtls',
        user: 'carol@corp.example.com',
      })
      .expect(201);
    const [row] = await approveRows(t, admin.accessToken, [
      (res.body as { request_id: string }).request_id,
    ]);
    const revoked = await t.http
      .post('/api/v1/users/carol@corp.example.com/revoke-certs')
      .set(...bearer(admin.accessToken))
      .send({})
      .expect(200);
    expect(revoked.body).toEqual({
      identity: 'carol@corp.example.com',
      certificates: [{ serial: row.serial, status: 'revoked' }],
    });
  });
});
