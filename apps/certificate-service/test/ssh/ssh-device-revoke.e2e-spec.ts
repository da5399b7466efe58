import { sshKeygenQueryKrl } from '@platform/pki/testing';
import { sql, startEnrollApp } from '../fixtures/enroll';
import { issueCertificate, issuedDevice } from '../fixtures/issue';
import { adminKeyAction, registerKey, SshKeyMaker } from '../fixtures/ssh-keys';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { issuedSsh, servedKrl } from './ssh-support';

describe('Revoke device - the SSH cascade of /api/v1/devices/{serial}/revoke (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  let keys: SshKeyMaker;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    keys = new SshKeyMaker();
  });
  afterAll(async () => {
    keys.cleanup();
    await t.close();
  });

  const revokeDevice = (serial: string) =>
    t.http
      .post(`/api/v1/devices/${serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({});

  /** A device holding an X.509 certificate, an SSH certificate, an active and a pending raw key. */
  async function sshDevice() {
    const { request, certificate } = await issuedSsh(t, admin);
    const device = request.device;
    const x509Serial = await issueCertificate(t, admin.accessToken, device);
    const active = keys.make('ed25519');
    const pending = keys.make('ecdsa');
    const activeId = (await registerKey(t, device, active.publicLine)).id;
    const pendingId = (await registerKey(t, device, pending.publicLine)).id;
    await adminKeyAction(t, admin.accessToken, activeId, 'approve');
    return { device, certificate, x509Serial, active, activeId, pendingId };
  }

  const keyStates = async (ids: string[]) =>
    (
      await sql<{ id: string; state: string }>(
        t,
        `SELECT id, state FROM ssh_keys WHERE id = ANY($1::uuid[])`,
        [ids],
      )
    ).reduce<Record<string, string>>((m, r) => ({ ...m, [r.id]: r.state }), {});

  it('revokes the SSH certificates and raw keys with the device: new KRL with both, others untouched', async () => {
    const target = await sshDevice();
    const bystander = await issuedSsh(t, admin);
    const before = await servedKrl(t);
    const res = await revokeDevice(target.device.serial).expect(200);
    expect(res.body).toMatchObject({
      serial: target.device.serial,
      status: 'revoked',
      blocked: true,
      certificates: [{ serial: target.x509Serial, status: 'revoked' }],
      ssh: {
        ok: true,
        certificates: [target.certificate.serial],
        keys_revoked: 1,
        keys_rejected: 1,
        krl_version: expect.stringMatching(/^\d+$/),
        failed: [],
      },
    });
    expect(await keyStates([target.activeId, target.pendingId])).toEqual({
      [target.activeId]: 'revoked',
      [target.pendingId]: 'rejected',
    });
    const after = await servedKrl(t, before.etag);
    expect(after.status).toBe(200);
    expect(after.version).toBe(res.body.ssh.krl_version);
    const revokedCert = sshKeygenQueryKrl(after.bytes, [target.certificate.ssh_certificate]);
    expect(revokedCert).toMatchObject({ status: 1, out: expect.stringContaining('REVOKED') });
    const revokedKey = sshKeygenQueryKrl(after.bytes, [target.active.publicLine]);
    expect(revokedKey).toMatchObject({ status: 1, out: expect.stringContaining('REVOKED') });
    expect(sshKeygenQueryKrl(after.bytes, [bystander.certificate.ssh_certificate]).status).toBe(0);
    // The session watcher's feed names the certificate.
    const feed = await sql<{ certificate_serial: string }>(
      t,
      `SELECT certificate_serial::text FROM ssh_revocations WHERE certificate_serial = $1`,
      [target.certificate.ssh_serial],
    );
    expect(feed).toHaveLength(1);
    // Repeat: nothing left to revoke, still complete.
    const again = await revokeDevice(target.device.serial).expect(200);
    expect(again.body.ssh).toMatchObject({ ok: true, certificates: [], keys_revoked: 0 });
  });

  it('leaves SSH certificates and raw keys alone when one X.509 certificate is revoked', async () => {
    const target = await sshDevice();
    await t.http
      .post(`/api/v1/certificates/${target.x509Serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    const [cert] = await sql<{ status: string }>(
      t,
      `SELECT status FROM ssh_certificates WHERE serial = $1`,
      [target.certificate.ssh_serial],
    );
    expect(cert.status).toBe('active');
    expect(await keyStates([target.activeId])).toEqual({ [target.activeId]: 'active' });
    const krl = await servedKrl(t);
    expect(sshKeygenQueryKrl(krl.bytes, [target.certificate.ssh_certificate]).status).toBe(0);
    expect(sshKeygenQueryKrl(krl.bytes, [target.active.publicLine]).status).toBe(0);
  });

  it('answers ssh_keys_revoke_failed (207) when the raw-key cascade fails, overriding revoked; a repeat completes', async () => {
    const target = await sshDevice();
    const [{ id: deviceId }] = await sql<{ id: string }>(
      t,
      `SELECT id FROM devices WHERE serial = $1`,
      [target.device.serial],
    );
    // A real database failure of the key registry's UPDATE for this device only.
    await sql(
      t,
      `CREATE FUNCTION ssh_keys_refuse() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN RAISE EXCEPTION 'ssh_keys unavailable'; END $$`,
    );
    await sql(
      t,
      `CREATE TRIGGER ssh_keys_refuse BEFORE UPDATE ON ssh_keys FOR EACH ROW
         WHEN (OLD.device_id = '${deviceId}') EXECUTE FUNCTION ssh_keys_refuse()`,
    );
    try {
      const res = await revokeDevice(target.device.serial).expect(207);
      expect(res.body).toMatchObject({
        status: 'ssh_keys_revoke_failed',
        certificates: [{ serial: target.x509Serial, status: 'revoked' }],
        blocked: true,
        ssh: {
          ok: false,
          certificates: [target.certificate.serial],
          keys_revoked: 0,
          failed: ['keys'],
        },
      });
      expect(await keyStates([target.activeId])).toEqual({ [target.activeId]: 'active' });
      // The certificate step went through on its own: it is in the published KRL.
      const krl = await servedKrl(t);
      expect(sshKeygenQueryKrl(krl.bytes, [target.certificate.ssh_certificate]).status).toBe(1);
      expect(sshKeygenQueryKrl(krl.bytes, [target.active.publicLine]).status).toBe(0);
      expect(
        t.logs.lines().some((l) => l.msg === 'SSH revocation step failed' && l.step === 'keys'),
      ).toBe(true);
    } finally {
      await sql(t, `DROP TRIGGER ssh_keys_refuse ON ssh_keys`);
      await sql(t, `DROP FUNCTION ssh_keys_refuse()`);
    }
    const again = await revokeDevice(target.device.serial).expect(200);
    expect(again.body).toMatchObject({
      status: 'revoked',
      ssh: { ok: true, keys_revoked: 1, failed: [] },
    });
    const krl = await servedKrl(t);
    expect(sshKeygenQueryKrl(krl.bytes, [target.active.publicLine]).status).toBe(1);
  });

  it('keeps the X.509 answer while SSH is switched off: no CA, no KRL, no failure', async () => {
    const off = await startEnrollApp({ env: { CERTSVC_FEATURES_SSH: 'false' } });
    try {
      const offAdmin = await loginAdmin(off);
      const device = await issuedDevice(off, offAdmin.accessToken);
      const res = await off.http
        .post(`/api/v1/devices/${device.serial}/revoke`)
        .set(...bearer(offAdmin.accessToken))
        .send({})
        .expect(200);
      expect(res.body).toMatchObject({
        status: 'revoked',
        ssh: { ok: true, certificates: [], krl_version: null, failed: [] },
      });
      expect(await sql(off, `SELECT 1 FROM ssh_krl_state`)).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
