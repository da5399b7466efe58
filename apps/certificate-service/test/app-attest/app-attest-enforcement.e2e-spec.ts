import { enrollDevice, nonce, sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import { putSystemSettings } from '../fixtures/ssh-keys';
import { bearer, loginAdmin } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { appAttestPki, verifiedAttestation, type AppAttestPki } from './app-attest-fixture';

describe('App attestation enforcement - app_attest_enforcement on POST /api/v1/enroll', () => {
  let t: TestApp;
  let pki: AppAttestPki;
  let admin: string;
  beforeAll(async () => {
    pki = appAttestPki();
    t = await startEnrollApp({ env: pki.env });
    admin = (await loginAdmin(t)).accessToken;
  });
  afterAll(async () => {
    await t.close();
    pki.dispose();
  });

  const setStep = (step: string) => putSystemSettings(t, admin, { app_attest_enforcement: step });

  const verdictOf = async (requestId: string) =>
    (
      await sql<{ app_attest: string | null }>(
        t,
        'SELECT app_attest FROM certificate_requests WHERE id = $1',
        [requestId],
      )
    )[0].app_attest;

  const enrollMac = async (serial: string, extra: Record<string, unknown>) =>
    t.http.post('/api/v1/enroll').send({
      csr: opensslCsr('ec', serial).csrPem,
      serial,
      nonce: await nonce(t),
      platform: 'macos',
      hostname: `mac-${serial}`,
      ...extra,
    });

  const deviceCount = async (serial: string) =>
    Number(
      (
        await sql<{ n: string }>(t, 'SELECT count(*) AS n FROM devices WHERE serial = $1', [serial])
      )[0].n,
    );

  const usedAt = async (id: string) =>
    (
      await sql<{ used_at: Date | null }>(t, 'SELECT used_at FROM app_attestations WHERE id = $1', [
        id,
      ])
    )[0].used_at;

  it('is off by default, shown and changed in the system settings, audited with old and new', async () => {
    const before = await t.http
      .get('/api/v1/settings/system')
      .set(...bearer(admin))
      .expect(200);
    expect(before.body.app_attest_enforcement).toBe('off');
    const after = await setStep('advisory');
    expect(after.app_attest_enforcement).toBe('advisory');
    const [audit] = await sql<{
      details: { old: { app_attest: unknown }; new: { app_attest: unknown } };
    }>(
      t,
      `SELECT details FROM audit_log WHERE action = 'settings.system_change' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.details.old.app_attest).toEqual({ enforcement: 'off' });
    expect(audit.details.new.app_attest).toEqual({ enforcement: 'advisory' });
    await t.http
      .put('/api/v1/settings/system')
      .set(...bearer(admin))
      .send({ app_attest_enforcement: 'strict' })
      .expect(400);
    await setStep('off');
  });

  describe('off', () => {
    beforeAll(() => setStep('off'));

    it('ignores app attestation: a Mac without one enrolls, the attestation is not consumed', async () => {
      const serial = uniqueSerial('MAC');
      const id = await verifiedAttestation(t, pki, serial);
      const res = await enrollMac(serial, { os_version: '26.4', app_attestation_id: id }).then(
        (r) => (r.status === 201 ? r : Promise.reject(new Error(JSON.stringify(r.body)))),
      );
      expect(await verdictOf(res.body.request_id)).toBe('not_applicable');
      expect(await usedAt(id)).toBeNull();
    });
  });

  describe('advisory', () => {
    beforeAll(() => setStep('advisory'));

    it('records missing for a Mac without an attestation and lets it enroll', async () => {
      const serial = uniqueSerial('MAC');
      const res = await enrollMac(serial, { os_version: '26.1' });
      expect(res.status).toBe(201);
      expect(await verdictOf(res.body.request_id)).toBe('missing');
    });

    it('records verified, consumes the attestation, and records invalid when it is reused', async () => {
      const serial = uniqueSerial('MAC');
      const id = await verifiedAttestation(t, pki, serial);
      const first = await enrollMac(serial, { os_version: '27.0', app_attestation_id: id });
      expect(first.status).toBe(201);
      expect(await verdictOf(first.body.request_id)).toBe('verified');
      expect(await usedAt(id)).not.toBeNull();
      const listed = await t.http
        .get(`/api/v1/requests?serial=${encodeURIComponent(serial)}`)
        .set(...bearer(admin))
        .expect(200);
      expect(listed.body.items).toEqual([
        expect.objectContaining({ id: first.body.request_id, app_attest: 'verified' }),
      ]);
      const again = await enrollMac(serial, {
        os_version: '27.0',
        app_attestation_id: id,
        enrollment_token: first.body.enrollment_token,
      });
      expect(again.status).toBe(201);
      expect(await verdictOf(again.body.request_id)).toBe('invalid');
    });

    it('leaves other platforms alone', async () => {
      const device = await enrollDevice(t);
      expect(await verdictOf(device.requestId)).toBe('not_applicable');
    });
  });

  describe('required', () => {
    beforeAll(() => setStep('required'));
    afterAll(() => setStep('off'));

    it('refuses a Mac without an attestation with 403 app_attest_required, storing nothing', async () => {
      const serial = uniqueSerial('MAC');
      const res = await enrollMac(serial, { os_version: '27.1' });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'app_attest_required', message: expect.any(String) });
      expect(await deviceCount(serial)).toBe(0);
    });

    it('refuses macOS 26 (and a Mac not saying its version) even with a verified attestation, keeping it unused', async () => {
      const serial = uniqueSerial('MAC');
      const id = await verifiedAttestation(t, pki, serial, '26.3');
      for (const os of [{ os_version: '26.3' }, {}]) {
        const res = await enrollMac(serial, { ...os, app_attestation_id: id });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('app_attest_required');
      }
      expect(await deviceCount(serial)).toBe(0);
      expect(await usedAt(id)).toBeNull();
    });

    it('admits macOS 27 with a verified attestation of the same serial, once', async () => {
      const serial = uniqueSerial('MAC');
      const id = await verifiedAttestation(t, pki, serial);
      const res = await enrollMac(serial, { os_version: '27.0.1', app_attestation_id: id });
      expect(res.status).toBe(201);
      expect(await verdictOf(res.body.request_id)).toBe('verified');
      const replay = await enrollMac(serial, {
        os_version: '27.0.1',
        app_attestation_id: id,
        enrollment_token: res.body.enrollment_token,
      });
      expect(replay.status).toBe(403);
      expect(replay.body.code).toBe('app_attest_required');
    });

    it("refuses another serial's attestation and an unknown id", async () => {
      const serial = uniqueSerial('MAC');
      const id = await verifiedAttestation(t, pki, uniqueSerial('MAC'));
      for (const attestationId of [id, '00000000-0000-4000-8000-000000000000']) {
        const res = await enrollMac(serial, {
          os_version: '27.2',
          app_attestation_id: attestationId,
        });
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('app_attest_required');
      }
      expect(await deviceCount(serial)).toBe(0);
    });

    it('applies to darwin too, and leaves Windows and Linux alone', async () => {
      const serial = uniqueSerial('MAC');
      const res = await enrollMac(serial, { platform: 'darwin', os_version: '27.0' });
      expect(res.status).toBe(403);
      const windows = await enrollDevice(t);
      expect(await verdictOf(windows.requestId)).toBe('not_applicable');
    });
  });
});
