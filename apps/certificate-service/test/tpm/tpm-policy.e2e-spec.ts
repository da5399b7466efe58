import { generateKeyPairSync, sign } from 'node:crypto';
import { rowCounts, sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { SwtpmDevice } from '../support/swtpm-device';
import type { TestApp } from '../support/test-app';

/**
 * The `TPM_*` settings on `POST /enroll` with a real software TPM, and the continuity key.
 * `TPM_REJECT_SOFTWARE=true`: a key not proven TPM-resident is refused on Windows and Linux
 * (with or without other TPM evidence), before any record exists; macOS is not a TPM platform.
 */
describe('TPM policy and continuity key - /api/v1/enroll (POST)', () => {
  let strict: TestApp;
  let open: TestApp;
  let admin: TestUser;
  let tpm: SwtpmDevice;

  beforeAll(async () => {
    [strict, open, tpm] = await Promise.all([
      startEnrollApp({ env: { TPM_REJECT_SOFTWARE: 'true' } }),
      startEnrollApp(),
      SwtpmDevice.start(),
    ]);
    admin = await loginAdmin(strict);
    await strict.http
      .post('/api/v1/settings/tpm-roots')
      .set(...bearer(admin.accessToken))
      .send({ name: 'swtpm', certificate_pem: tpm.ek.vendorRootPem })
      .expect(201);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([strict?.close(), open?.close(), tpm?.stop()]);
  });

  const plainNonce = async (t: TestApp): Promise<string> =>
    (await t.http.post('/api/v1/enroll/nonce').expect(201)).body.nonce as string;

  async function refused(t: TestApp, body: Record<string, unknown>): Promise<void> {
    const before = await rowCounts(t);
    const res = await t.http.post('/api/v1/enroll').send(body);
    expect({ status: res.status, code: res.body.code }).toEqual({
      status: 403,
      code: 'enroll_source_auth_failed',
    });
    expect(await rowCounts(t)).toEqual(before);
  }

  it('TPM_REJECT_SOFTWARE refuses a software key on Linux and Windows, not on macOS', async () => {
    for (const platform of ['linux', 'windows']) {
      const serial = uniqueSerial();
      await refused(strict, {
        csr: opensslCsr('ec', serial).csrPem,
        serial,
        nonce: await plainNonce(strict),
        platform,
      });
    }
    const mac = uniqueSerial();
    await strict.http
      .post('/api/v1/enroll')
      .send({
        csr: opensslCsr('ec', mac).csrPem,
        serial: mac,
        nonce: await plainNonce(strict),
        platform: 'macos',
      })
      .expect(201);
  });

  it('TPM_REJECT_SOFTWARE refuses TPM evidence without the certify of the CSR key, admits it with', async () => {
    const serial = uniqueSerial('TPM');
    const ask = async () =>
      (
        await strict.http
          .post('/api/v1/enroll/nonce')
          .send({ serial, tpm: tpm.nonceBody() })
          .expect(201)
      ).body as {
        nonce: string;
        activation: { credential_blob: string; encrypted_secret: string };
      };
    const first = await ask();
    await refused(strict, {
      csr: await tpm.csr(serial),
      serial,
      nonce: first.nonce,
      platform: 'linux',
      tpm: await tpm.evidence(first.nonce, first.activation, { certify: false }),
    });
    const second = await ask();
    await strict.http
      .post('/api/v1/enroll')
      .send({
        csr: await tpm.csr(serial),
        serial,
        nonce: second.nonce,
        platform: 'linux',
        tpm: await tpm.evidence(second.nonce, second.activation),
      })
      .expect(201);
  });

  it('pins the continuity key at its first enrollment and refuses another or none until released', async () => {
    const serial = uniqueSerial();
    const keyA = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyB = generateKeyPairSync('ed25519');
    const proof = (key: typeof keyA, nonce: string) => ({
      continuity_key: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      continuity_signature: sign(
        key.publicKey.asymmetricKeyType === 'ed25519' ? null : 'sha256',
        Buffer.from(`certsvc-continuity/v1\0${serial}\0${nonce}`, 'utf8'),
        key.privateKey,
      ).toString('base64'),
    });
    const body = async (extra: (nonce: string) => Record<string, unknown>) => {
      const nonce = await plainNonce(open);
      return {
        csr: opensslCsr('ec', serial).csrPem,
        serial,
        nonce,
        platform: 'linux',
        ...extra(nonce),
      };
    };

    // A signature over another nonce does not prove the key.
    await refused(open, await body(() => proof(keyA, 'some other nonce')));
    const first = await open.http
      .post('/api/v1/enroll')
      .send(await body((n) => proof(keyA, n)))
      .expect(201);
    const token = first.body.enrollment_token as string;
    const [pinned] = await sql<{ continuity_key: string }>(
      open,
      'SELECT continuity_key FROM devices WHERE serial = $1',
      [serial],
    );
    expect(pinned.continuity_key.trim()).toBe(
      keyA.publicKey.export({ format: 'pem', type: 'spki' }).toString().trim(),
    );

    await refused(open, await body((n) => ({ ...proof(keyB, n), enrollment_token: token })));
    await refused(open, await body(() => ({ enrollment_token: token })));
    await open.http
      .post('/api/v1/enroll')
      .send(await body((n) => ({ ...proof(keyA, n), enrollment_token: token })))
      .expect(201);

    const openAdmin = await loginAdmin(open);
    await open.http
      .post(`/api/v1/devices/${serial}/release-continuity-key`)
      .set(...bearer(openAdmin.accessToken))
      .expect(200);
    await open.http
      .post('/api/v1/enroll')
      .send(await body((n) => ({ ...proof(keyB, n), enrollment_token: token })))
      .expect(201);
  });

  it('wants both continuity fields or neither (400 naming the missing one)', async () => {
    const serial = uniqueSerial();
    const res = await open.http
      .post('/api/v1/enroll')
      .send({
        csr: opensslCsr('ec', serial).csrPem,
        serial,
        nonce: await plainNonce(open),
        continuity_signature: Buffer.alloc(64).toString('base64'),
      })
      .expect(400);
    expect(JSON.stringify(res.body)).toContain('continuity_key');
  });
});
