import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enrollDevice, rowCounts, sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import { approveRows, issueCertificate } from '../fixtures/issue';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import {
  SwtpmDevice,
  type ActivationChallenge,
  type TpmEvidenceBody,
} from '../support/swtpm-device';
import type { TestApp } from '../support/test-app';

interface NonceAnswer {
  nonce: string;
  activation?: ActivationChallenge & { credential_file: string };
}

/**
 * TPM 2.0 attestation on `POST /enroll` with real software TPMs (swtpm + tpm2-tools), real
 * PostgreSQL and Redis: the EK chain against registered vendor roots, credential activation,
 * the pinned AK, certify of the CSR key, and the refusals — each before any record exists.
 */
describe('TPM attestation - /api/v1/enroll/nonce and /api/v1/enroll (POST) with swtpm', () => {
  let t: TestApp;
  let admin: TestUser;
  let tpm: SwtpmDevice;
  let other: SwtpmDevice;
  let unregistered: SwtpmDevice;

  beforeAll(async () => {
    [t, tpm, other, unregistered] = await Promise.all([
      startEnrollApp(),
      SwtpmDevice.start(),
      SwtpmDevice.start(),
      SwtpmDevice.start(),
    ]);
    admin = await loginAdmin(t);
    for (const [name, device] of [
      ['swtpm A', tpm],
      ['swtpm B', other],
    ] as const) {
      await t.http
        .post('/api/v1/settings/tpm-roots')
        .set(...bearer(admin.accessToken))
        .send({ name, certificate_pem: device.ek.vendorRootPem })
        .expect(201);
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([t?.close(), tpm?.stop(), other?.stop(), unregistered?.stop()]);
  });

  const askNonce = async (device: SwtpmDevice, serial?: string): Promise<NonceAnswer> =>
    (
      await t.http
        .post('/api/v1/enroll/nonce')
        .send({ ...(serial ? { serial } : {}), tpm: device.nonceBody() })
        .expect(201)
    ).body as NonceAnswer;

  const enroll = async (
    device: SwtpmDevice,
    serial: string,
    nonce: string,
    evidence: TpmEvidenceBody | undefined,
    extra: Record<string, unknown> = {},
  ) =>
    t.http.post('/api/v1/enroll').send({
      csr: await device.csr(serial),
      serial,
      nonce,
      platform: 'linux',
      agent_version: '2.4.1',
      ...(evidence ? { tpm: evidence } : {}),
      ...extra,
    });

  const metric = async (verdict: string): Promise<number> => {
    const text = (await t.http.get('/metrics').expect(200)).text;
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`certsvc_agent_channel_identity_total{verdict="${verdict}"}`));
    return Number(line?.split(' ').pop() ?? 'NaN');
  };

  async function refusedBeforeAnyRecord(send: () => Promise<{ status: number; body: unknown }>) {
    const before = await rowCounts(t);
    const refusedBefore = await metric('refused');
    const res = await send();
    expect(res.status).toBe(403);
    expect((res.body as { code: string }).code).toBe('enroll_source_auth_failed');
    expect(await rowCounts(t)).toEqual(before);
    expect(await metric('refused')).toBe(refusedBefore + 1);
  }

  let enrolledSerial: string;
  let enrollmentToken: string;
  let firstRequest: { id: string; secret: string };

  it('a first attested enroll passes credential activation, pins the EK and the AK, and counts by ek:', async () => {
    const serial = uniqueSerial('TPM');
    const answer = await askNonce(tpm, serial);
    expect(answer.activation).toBeDefined();
    const activated = await metric('tpm_activated');
    const res = await enroll(
      tpm,
      serial,
      answer.nonce,
      await tpm.evidence(answer.nonce, answer.activation),
    );
    expect(res.status).toBe(201);
    enrolledSerial = serial;
    enrollmentToken = res.body.enrollment_token as string;
    firstRequest = { id: res.body.request_id as string, secret: res.body.agent_secret as string };
    expect(await metric('tpm_activated')).toBe(activated + 1);

    const ekSerial = BigInt(
      `0x${new (await import('node:crypto')).X509Certificate(tpm.ek.ekCertDer).serialNumber}`,
    );
    const [device] = await sql<{
      tpm_ek_cert_serial: string;
      tpm_ak_public: Buffer;
      identity_key: string;
    }>(t, 'SELECT tpm_ek_cert_serial, tpm_ak_public, identity_key FROM devices WHERE serial = $1', [
      serial,
    ]);
    expect(BigInt(`0x${device.tpm_ek_cert_serial}`)).toBe(ekSerial);
    expect(device.tpm_ak_public.equals(tpm.akPublic)).toBe(true);
    expect(device.identity_key).toBe(`ek:${device.tpm_ek_cert_serial}`);
    const [request] = await sql<{ attestation: string }>(
      t,
      'SELECT attestation FROM certificate_requests WHERE id = $1',
      [res.body.request_id],
    );
    expect(request.attestation).toBe('tpm');

    const view = await t.http
      .get(`/api/v1/devices?serial=${serial}`)
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(view.body.items[0]).toMatchObject({ serial, tpm_bound: true, tpm_pinned: true });
  });

  it('openssl verifies the certificate issued to the attested TPM key', async () => {
    await issueCertificate(t, admin.accessToken, {
      serial: enrolledSerial,
      requestId: firstRequest.id,
      agentSecret: firstRequest.secret,
      enrollmentToken,
      csr: { csrPem: '', keyPem: '' },
    });
    const delivered = await t.http
      .get(`/api/v1/requests/${firstRequest.id}/certificate`)
      .set('x-agent-secret', firstRequest.secret)
      .expect(200);
    const dir = mkdtempSync(join(tmpdir(), 'tpm-verify-'));
    try {
      writeFileSync(join(dir, 'ca.pem'), delivered.body.ca_bundle_pem as string);
      writeFileSync(join(dir, 'cert.pem'), delivered.body.certificate_pem as string);
      expect(
        execFileSync('openssl', ['verify', '-CAfile', 'ca.pem', 'cert.pem'], {
          cwd: dir,
        }).toString(),
      ).toContain('cert.pem: OK');
      const key = execFileSync('openssl', ['x509', '-in', 'cert.pem', '-noout', '-pubkey'], {
        cwd: dir,
      }).toString();
      expect(key.trim()).toBe(
        tpm.keyObject.export({ format: 'pem', type: 'spki' }).toString().trim(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the pinned AK enrolls again without a challenge, on a quote over the nonce', async () => {
    const answer = await askNonce(tpm, enrolledSerial);
    expect(answer.activation).toBeUndefined();
    const pinned = await metric('tpm_pinned');
    const res = await enroll(tpm, enrolledSerial, answer.nonce, await tpm.evidence(answer.nonce), {
      enrollment_token: enrollmentToken,
    });
    expect(res.status).toBe(201);
    expect(await metric('tpm_pinned')).toBe(pinned + 1);
  });

  it('refuses an EK certificate under a vendor root nobody registered', async () => {
    const serial = uniqueSerial('TPM');
    const answer = await askNonce(unregistered, serial);
    const evidence = await unregistered.evidence(answer.nonce, answer.activation);
    await refusedBeforeAnyRecord(() => enroll(unregistered, serial, answer.nonce, evidence));
  });

  it('refuses a replayed activation: an earlier answer against a new challenge', async () => {
    const serial = uniqueSerial('TPM');
    const first = await askNonce(tpm, serial);
    const oldAnswer = (await tpm.activate(first.activation!)).toString('base64');
    const second = await askNonce(tpm, serial);
    const evidence = { ...(await tpm.evidence(second.nonce)), activated_credential: oldAnswer };
    await refusedBeforeAnyRecord(() => enroll(tpm, serial, second.nonce, evidence));
  });

  it('refuses the whole body sent again: its nonce is spent', async () => {
    const serial = uniqueSerial('TPM');
    const answer = await askNonce(other, serial);
    const evidence = await other.evidence(answer.nonce, answer.activation);
    const csr = await other.csr(serial);
    const body = { csr, serial, nonce: answer.nonce, platform: 'linux', tpm: evidence };
    await t.http.post('/api/v1/enroll').send(body).expect(201);
    const again = await t.http.post('/api/v1/enroll').send(body).expect(400);
    expect(again.body.code).toBe('nonce_invalid');
  });

  it('refuses an AK from another TPM presented with this TPM’s EK certificate', async () => {
    const serial = uniqueSerial('TPM');
    const nonceBody = { ...tpm.nonceBody(), ak_public: other.akPublic.toString('base64') };
    const answer = (
      await t.http.post('/api/v1/enroll/nonce').send({ serial, tpm: nonceBody }).expect(201)
    ).body as NonceAnswer;
    // The other TPM holds the AK but not the EK the secret is sealed to: it cannot activate.
    await expect(other.activate(answer.activation!)).rejects.toThrow(/activatecredential failed/);
    const evidence = {
      ...(await other.evidence(answer.nonce)),
      ek_certificate: tpm.ek.ekCertDer.toString('base64'),
      ek_chain: tpm.ek.intermediatesDer.map((d) => d.toString('base64')),
      activated_credential: Buffer.alloc(32, 7).toString('base64'),
    };
    await refusedBeforeAnyRecord(() => enroll(other, serial, answer.nonce, evidence));
  });

  it('refuses a quote that is not over this nonce, and a certify of another key', async () => {
    const serial = uniqueSerial('TPM');
    const answer = await askNonce(tpm, serial);
    const stale = await tpm.evidence('another nonce', answer.activation);
    await refusedBeforeAnyRecord(() => enroll(tpm, serial, answer.nonce, stale));

    const fresh = await askNonce(tpm, serial);
    const evidence = await tpm.evidence(fresh.nonce, fresh.activation);
    // A software CSR key with the TPM key's certify: the certified key is not the CSR's.
    const software = opensslCsr('ec', serial);
    await refusedBeforeAnyRecord(() =>
      t.http.post('/api/v1/enroll').send({
        csr: software.csrPem,
        serial,
        nonce: fresh.nonce,
        platform: 'linux',
        tpm: evidence,
      }),
    );
  });

  it('a TPM-bound device may not fall back to an unattested enroll', async () => {
    const software = opensslCsr('ec', enrolledSerial);
    const nonce = (await t.http.post('/api/v1/enroll/nonce').expect(201)).body.nonce as string;
    await refusedBeforeAnyRecord(() =>
      t.http.post('/api/v1/enroll').send({
        csr: software.csrPem,
        serial: enrolledSerial,
        nonce,
        platform: 'linux',
        enrollment_token: enrollmentToken,
      }),
    );
  });

  it('release-tpm-pin forgets the AK (a new challenge follows); unbind-tpm forgets the EK too', async () => {
    await t.http
      .post(`/api/v1/devices/${enrolledSerial}/release-tpm-pin`)
      .set(...bearer(admin.accessToken))
      .expect(200);
    const [released] = await sql<{
      tpm_ak_public: Buffer | null;
      tpm_ek_cert_serial: string | null;
    }>(t, 'SELECT tpm_ak_public, tpm_ek_cert_serial FROM devices WHERE serial = $1', [
      enrolledSerial,
    ]);
    expect(released.tpm_ak_public).toBeNull();
    expect(released.tpm_ek_cert_serial).not.toBeNull();

    // A new AK (an OS reinstall keeping the TPM) is accepted after a fresh activation.
    await tpm.createAk();
    const answer = await askNonce(tpm, enrolledSerial);
    expect(answer.activation).toBeDefined();
    await (
      await enroll(
        tpm,
        enrolledSerial,
        answer.nonce,
        await tpm.evidence(answer.nonce, answer.activation),
        {
          enrollment_token: enrollmentToken,
        },
      )
    ).body;
    const [repinned] = await sql<{ tpm_ak_public: Buffer }>(
      t,
      'SELECT tpm_ak_public FROM devices WHERE serial = $1',
      [enrolledSerial],
    );
    expect(repinned.tpm_ak_public.equals(tpm.akPublic)).toBe(true);

    await t.http
      .post(`/api/v1/devices/${enrolledSerial}/unbind-tpm`)
      .set(...bearer(admin.accessToken))
      .expect(200);
    const [unbound] = await sql<{
      tpm_ak_public: Buffer | null;
      tpm_ek_cert_serial: string | null;
    }>(t, 'SELECT tpm_ak_public, tpm_ek_cert_serial FROM devices WHERE serial = $1', [
      enrolledSerial,
    ]);
    expect(unbound).toEqual({ tpm_ak_public: null, tpm_ek_cert_serial: null });
  });

  it('strict source-auth admits the full chain signed inside the TPM, and records tpm_attested', async () => {
    const setPolicy = (mode: string) =>
      t.http
        .put('/api/v1/settings/enroll-source-auth')
        .set(...bearer(admin.accessToken))
        .send({ mode })
        .expect(200);
    await setPolicy('strict');
    try {
      const serial = uniqueSerial('TPM');
      const answer = await askNonce(other, serial);
      const sourceNonce = (await t.http.post('/api/v1/enroll/source-nonce').expect(201)).body
        .nonce as string;
      const evidence = await other.evidence(answer.nonce, answer.activation);
      const text = JSON.stringify({
        csr: await other.csr(serial),
        serial,
        nonce: answer.nonce,
        platform: 'linux',
        source_nonce: sourceNonce,
        tpm: evidence,
      });
      const signature = await other.signDigest(createHash('sha256').update(text).digest());
      const res = await t.http
        .post('/api/v1/enroll')
        .set('content-type', 'application/json')
        .set('x-enroll-source-signature', signature.toString('base64'))
        .send(text)
        .expect(201);
      const [row] = await sql<{ source_auth: string; attestation: string }>(
        t,
        'SELECT source_auth, attestation FROM certificate_requests WHERE id = $1',
        [res.body.request_id],
      );
      expect(row).toEqual({ source_auth: 'tpm_attested', attestation: 'tpm' });

      // The same chain without the certify of the CSR key is a software key to strict.
      const serial2 = uniqueSerial('TPM');
      const answer2 = await askNonce(other, serial2);
      const nonce2 = (await t.http.post('/api/v1/enroll/source-nonce').expect(201)).body
        .nonce as string;
      const text2 = JSON.stringify({
        csr: await other.csr(serial2),
        serial: serial2,
        nonce: answer2.nonce,
        platform: 'linux',
        source_nonce: nonce2,
        tpm: await other.evidence(answer2.nonce, answer2.activation, { certify: false }),
      });
      const signature2 = await other.signDigest(createHash('sha256').update(text2).digest());
      await refusedBeforeAnyRecord(() =>
        t.http
          .post('/api/v1/enroll')
          .set('content-type', 'application/json')
          .set('x-enroll-source-signature', signature2.toString('base64'))
          .send(text2),
      );
    } finally {
      await setPolicy('off');
    }
  });

  it('a service account may not approve an unattested request under the attestation check', async () => {
    const sa = (
      await t.http
        .post('/api/v1/service-accounts')
        .set(...bearer(admin.accessToken))
        .send({ name: `mdm-${uniqueSerial()}` })
        .expect(201)
    ).body.token as string;
    const setStep = (attestation: string) =>
      t.http
        .put('/api/v1/settings/sa-auto-approve')
        .set(...bearer(admin.accessToken))
        .send({ policy: 'off', attestation })
        .expect(200);
    try {
      expect((await setStep('required')).body.attestation).toBe('required');
      const software = await enrollDevice(t, { extra: { platform: 'linux' } });
      const [refused] = await approveRows(t, sa, [software.requestId]);
      expect(refused).toMatchObject({ status: 'error', error: 'attestation_required' });

      const serial = uniqueSerial('TPM');
      const answer = await askNonce(tpm, serial);
      await tpm.createKey();
      const attested = await enroll(
        tpm,
        serial,
        answer.nonce,
        await tpm.evidence(answer.nonce, answer.activation),
      );
      expect(attested.status).toBe(201);
      const [approved] = await approveRows(t, sa, [attested.body.request_id as string]);
      expect(approved.status).toBe('issued');

      // if_bound: an unbound device passes; the refusal above stays only for bound devices.
      await setStep('if_bound');
      const [passes] = await approveRows(t, sa, [software.requestId]);
      expect(passes.status).toBe('issued');
    } finally {
      await setStep('if_bound');
    }
  });

  it('answers malformed TPM structures with 400 tpm_evidence_invalid, never 500', async () => {
    const garbage = Buffer.from('not a tpm structure').toString('base64');
    const bad = await t.http
      .post('/api/v1/enroll/nonce')
      .send({ tpm: { ...tpm.nonceBody(), ak_public: garbage } })
      .expect(400);
    expect(bad.body).toMatchObject({ code: 'tpm_evidence_invalid' });
    const badEk = await t.http
      .post('/api/v1/enroll/nonce')
      .send({ tpm: { ...tpm.nonceBody(), ek_certificate: garbage } })
      .expect(400);
    expect(badEk.body.code).toBe('tpm_evidence_invalid');
    // The EK is an encryption key, not an AK.
    const ekAsAk = await t.http
      .post('/api/v1/enroll/nonce')
      .send({
        tpm: {
          ...tpm.nonceBody(),
          ak_public: (await import('node:fs'))
            .readFileSync(join(tpm.dir, 'ek.pub'))
            .toString('base64'),
        },
      })
      .expect(400);
    expect(ekAsAk.body.code).toBe('tpm_evidence_invalid');

    const serial = uniqueSerial('TPM');
    const answer = await askNonce(tpm, serial);
    const evidence = await tpm.evidence(answer.nonce, answer.activation);
    const res = await enroll(tpm, serial, answer.nonce, { ...evidence, quote_info: garbage });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('tpm_evidence_invalid');
    const plainNonce = await t.http.post('/api/v1/enroll/nonce').send({}).expect(201);
    expect(plainNonce.body.activation).toBeUndefined();
  });
});
