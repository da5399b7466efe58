import { generateKeyPairSync, sign } from 'node:crypto';
import { DevicesRepository } from '../../src/modules/devices/devices.repository';
import { continuityMessage } from '../../src/modules/enrollment/enroll-attestation.service';
import { recoverMessage, type RecoverKey } from '../../src/modules/token-recover/recover-proof';
import { enrollDevice, nonce, sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { bearer, loginAdmin } from '../support/sessions';
import { SwtpmDevice, type ActivationChallenge } from '../support/swtpm-device';
import type { TestApp } from '../support/test-app';

/**
 * Token recovery with the TPM attestation key: a real software TPM (swtpm + tpm2-tools) signs
 * the recovery message with its AK (`tpm2_sign -c ak.ctx -g sha256`, a TPMT_SIGNATURE); the
 * device row has that AK pinned (as credential activation pins it).
 */
describe('Token recovery with the TPM AK - /api/v1/enroll/token-recover (POST)', () => {
  let t: TestApp;
  let tpm: SwtpmDevice;
  let otherTpm: SwtpmDevice;
  beforeAll(async () => {
    [t, tpm, otherTpm] = await Promise.all([
      startEnrollApp(),
      SwtpmDevice.start(),
      SwtpmDevice.start(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([t?.close(), tpm?.stop(), otherTpm?.stop()]);
  });

  /** A device enrolled through POST /enroll with `tpm`'s AK pinned (devices module). */
  async function akPinnedDevice(akPublic: Buffer) {
    const device = await enrollDevice(t);
    const devices = t.app.get(DevicesRepository);
    const row = await devices.findBySerial(device.serial);
    await devices.update(row!.id, { tpmAkPublic: akPublic });
    return device;
  }

  async function recover(
    serial: string,
    signer: (message: Buffer) => Promise<Buffer> | Buffer,
    options: { key?: RecoverKey; signedKey?: RecoverKey } = {},
  ) {
    const key = options.key ?? 'ak';
    const n = await nonce(t);
    const signature = await signer(recoverMessage(options.signedKey ?? key, serial, n));
    return t.http
      .post('/api/v1/enroll/token-recover')
      .send({ serial, nonce: n, key, signature: signature.toString('base64') });
  }

  const purposes = (serial: string, token: string) =>
    t.http.post('/api/v1/enroll/purposes').send({ serial, enrollment_token: token });

  const refused = (res: { status: number; body: unknown }) => {
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'token_recover_failed',
      message: expect.any(String),
    });
  };

  it('recovers with the AK and the continuity key that an attested first enroll pinned', async () => {
    const admin = await loginAdmin(t);
    await t.http
      .post('/api/v1/settings/tpm-roots')
      .set(...bearer(admin.accessToken))
      .send({ name: 'swtpm', certificate_pem: tpm.ek.vendorRootPem })
      .expect(201);
    const serial = uniqueSerial('TPM');
    const answer = (
      await t.http.post('/api/v1/enroll/nonce').send({ serial, tpm: tpm.nonceBody() }).expect(201)
    ).body as { nonce: string; activation?: ActivationChallenge };
    expect(answer.activation).toBeDefined();
    const continuity = generateKeyPairSync('ed25519');
    const enrolled = await t.http.post('/api/v1/enroll').send({
      csr: await tpm.csr(serial),
      serial,
      nonce: answer.nonce,
      platform: 'linux',
      agent_version: '2.4.1',
      tpm: await tpm.evidence(answer.nonce, answer.activation),
      continuity_key: continuity.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      continuity_signature: sign(
        null,
        continuityMessage(serial, answer.nonce),
        continuity.privateKey,
      ).toString('base64'),
    });
    expect(enrolled.status).toBe(201);
    const [pins] = await sql<{ ak: boolean; continuity: boolean }>(
      t,
      `SELECT tpm_ak_public IS NOT NULL AS ak, continuity_key IS NOT NULL AS continuity
         FROM devices WHERE serial = $1`,
      [serial],
    );
    expect(pins).toEqual({ ak: true, continuity: true });

    const byAk = await recover(serial, (m) => tpm.signWithAk(m));
    expect(byAk.status).toBe(200);
    await purposes(serial, enrolled.body.enrollment_token as string).expect(401);
    const byContinuity = await recover(serial, (m) => sign(null, m, continuity.privateKey), {
      key: 'continuity',
    });
    expect(byContinuity.status).toBe(200);
    await purposes(serial, byAk.body.enrollment_token as string).expect(401);
    await purposes(serial, byContinuity.body.enrollment_token as string).expect(200);
    // Another TPM's AK and another Ed25519 key stay refused for this device.
    refused(await recover(serial, (m) => otherTpm.signWithAk(m)));
    const stranger = generateKeyPairSync('ed25519').privateKey;
    refused(await recover(serial, (m) => sign(null, m, stranger), { key: 'continuity' }));
  });

  it('gives a new token for a signature by the pinned AK made inside the TPM', async () => {
    const device = await akPinnedDevice(tpm.akPublic);
    const res = await recover(device.serial, (m) => tpm.signWithAk(m));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: { serial: device.serial, enrollment_token: expect.stringMatching(/^wet_/) },
    });
    const fresh = res.body.enrollment_token as string;
    await purposes(device.serial, device.enrollmentToken).expect(401);
    await purposes(device.serial, fresh).expect(200);
    const audit = await sql(
      t,
      `SELECT actor, actor_kind, details FROM audit_log
        WHERE action = 'device.enrollment_token_recover' AND target = $1`,
      [device.serial],
    );
    expect(audit).toEqual([
      { actor: `device:${device.serial}`, actor_kind: 'device', details: { key: 'ak' } },
    ]);
  });

  it("refuses another TPM's AK, and this AK's signature over another slot's message", async () => {
    const device = await akPinnedDevice(tpm.akPublic);
    refused(await recover(device.serial, (m) => otherTpm.signWithAk(m)));
    refused(await recover(device.serial, (m) => tpm.signWithAk(m), { signedKey: 'continuity' }));
    await purposes(device.serial, device.enrollmentToken).expect(200);
  });

  it('keeps the AK and the continuity key apart', async () => {
    // Only the AK pinned: a signature by it claimed as the continuity key is refused.
    const device = await akPinnedDevice(tpm.akPublic);
    refused(await recover(device.serial, (m) => tpm.signWithAk(m), { key: 'continuity' }));
    // Only a continuity key pinned: its signature claimed as the AK is refused.
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const other = await enrollDevice(t);
    const devices = t.app.get(DevicesRepository);
    await devices.update((await devices.findBySerial(other.serial))!.id, {
      continuityKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    });
    const byContinuityKey = (m: Buffer) => sign('sha256', m, privateKey);
    refused(await recover(other.serial, byContinuityKey, { signedKey: 'continuity' }));
    refused(await recover(other.serial, byContinuityKey));
    await purposes(device.serial, device.enrollmentToken).expect(200);
    await purposes(other.serial, other.enrollmentToken).expect(200);
    // ...while the same key, claimed as what it is, works.
    const res = await recover(other.serial, byContinuityKey, { key: 'continuity' });
    expect(res.status).toBe(200);
  });

  it('refuses a new AK of the same TPM until it is pinned (the pin is the key, not the TPM)', async () => {
    const device = await akPinnedDevice(tpm.akPublic);
    await tpm.createAk();
    refused(await recover(device.serial, (m) => tpm.signWithAk(m)));
    await purposes(device.serial, device.enrollmentToken).expect(200);
  });
});
