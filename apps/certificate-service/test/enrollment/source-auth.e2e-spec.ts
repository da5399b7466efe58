import { sign } from 'node:crypto';
import { nonce, rowCounts, sql, startEnrollApp, uniqueSerial } from '../fixtures/enroll';
import { opensslCsr, type OpensslCsr } from '../fixtures/openssl';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/** The exact body text and its signature with the CSR's key (what a hardware key would do). */
function signedBody(
  body: Record<string, unknown>,
  keyPem: string,
): { text: string; signature: string } {
  const text = JSON.stringify(body);
  return { text, signature: sign('sha256', Buffer.from(text), keyPem).toString('base64') };
}

describe('Enroll source-auth - /api/v1/enroll (POST) and /api/v1/settings/enroll-source-auth (GET, PUT)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const setPolicy = (body: Record<string, unknown>) =>
    t.http
      .put('/api/v1/settings/enroll-source-auth')
      .set(...bearer(admin.accessToken))
      .send(body);

  const enrollRaw = (text: string, signature?: string) => {
    let req = t.http.post('/api/v1/enroll').set('content-type', 'application/json');
    if (signature !== undefined) req = req.set('x-enroll-source-signature', signature);
    return req.send(text);
  };

  async function body(csr: OpensslCsr, serial: string, extra: Record<string, unknown> = {}) {
    return { csr: csr.csrPem, serial, nonce: await nonce(t), agent_version: '2.4.1', ...extra };
  }

  it('starts off, readable by every admin role, and records a valid signature', async () => {
    const viewer = await createUser(t, admin, ['cert-viewer']);
    const res = await t.http
      .get('/api/v1/settings/enroll-source-auth')
      .set(...bearer(viewer.accessToken))
      .expect(200);
    expect(res.body).toMatchObject({ mode: 'off', min_agent_version: null, available: true });
    const serial = uniqueSerial();
    const csr = opensslCsr('ec', serial);
    const signed = signedBody(await body(csr, serial), csr.keyPem);
    const enrolled = await enrollRaw(signed.text, signed.signature).expect(201);
    const [row] = await sql<{ source_auth: string }>(
      t,
      'SELECT source_auth FROM certificate_requests WHERE id = $1',
      [enrolled.body.request_id],
    );
    expect(row.source_auth).toBe('signature_valid');
  });

  it('audits a change with the old and new values', async () => {
    await setPolicy({ mode: 'version_floor', min_agent_version: '2.0.0' }).expect(200);
    const audit = await t.http
      .get('/api/v1/audit?action=settings.enroll_source_auth_change')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(audit.body.items[0]).toMatchObject({
      actor: admin.email,
      details: {
        old: { mode: 'off', min_agent_version: null },
        new: { mode: 'version_floor', min_agent_version: '2.0.0' },
      },
    });
  });

  it('version_floor needs a version and refuses agents below it', async () => {
    await setPolicy({ mode: 'version_floor' }).expect(400);
    await setPolicy({ mode: 'version_floor', min_agent_version: '2.4.0' }).expect(200);
    const serial = uniqueSerial();
    const csr = opensslCsr('ec', serial);
    const before = await rowCounts(t);
    for (const version of ['2.3.9', undefined]) {
      const res = await t.http
        .post('/api/v1/enroll')
        .send(await body(csr, serial, { agent_version: version }))
        .expect(403);
      expect(res.body.code).toBe('enroll_source_auth_failed');
    }
    expect(await rowCounts(t)).toEqual(before);
    await t.http
      .post('/api/v1/enroll')
      .send(await body(csr, serial, { agent_version: '2.10.0' }))
      .expect(201);
  });

  describe('attestation_hardgate', () => {
    beforeAll(async () => {
      await setPolicy({ mode: 'attestation_hardgate' }).expect(200);
    });

    it('accepts a body signed with the CSR key and a fresh source nonce', async () => {
      const serial = uniqueSerial();
      const csr = opensslCsr('ec', serial);
      const signed = signedBody(
        await body(csr, serial, { source_nonce: await nonce(t, 'source-nonce') }),
        csr.keyPem,
      );
      const res = await enrollRaw(signed.text, signed.signature).expect(201);
      const [row] = await sql<{ source_auth: string }>(
        t,
        'SELECT source_auth FROM certificate_requests WHERE id = $1',
        [res.body.request_id],
      );
      expect(row.source_auth).toBe('signature_valid');
    });

    it('accepts an RSA key signature too', async () => {
      const serial = uniqueSerial();
      const csr = opensslCsr('rsa', serial);
      const signed = signedBody(
        await body(csr, serial, { source_nonce: await nonce(t, 'source-nonce') }),
        csr.keyPem,
      );
      await enrollRaw(signed.text, signed.signature).expect(201);
    });

    it('refuses with 403 before any record exists: missing, wrong, foreign-key or stale signatures', async () => {
      const serial = uniqueSerial();
      const csr = opensslCsr('ec', serial);
      const other = opensslCsr('ec', 'someone-else');
      const fresh = async () => body(csr, serial, { source_nonce: await nonce(t, 'source-nonce') });
      const good = signedBody(await fresh(), csr.keyPem);
      const tampered = good.text.replace('2.4.1', '2.4.2');
      const reusedNonce = signedBody(
        await body(csr, serial, { source_nonce: JSON.parse(good.text).source_nonce }),
        csr.keyPem,
      );
      await enrollRaw(good.text, good.signature).expect(201);
      await sql(
        t,
        'DELETE FROM certificate_requests WHERE device_id = (SELECT id FROM devices WHERE serial = $1)',
        [serial],
      );
      await sql(t, 'DELETE FROM devices WHERE serial = $1', [serial]);
      const before = await rowCounts(t);
      const noNonce = signedBody(await body(csr, serial), csr.keyPem);
      const cases: [string, string | undefined][] = [
        [await fresh().then((b) => JSON.stringify(b)), undefined],
        [tampered, good.signature],
        [
          signedBody(await fresh(), other.keyPem).text,
          signedBody(await fresh(), other.keyPem).signature,
        ],
        [reusedNonce.text, reusedNonce.signature],
        [noNonce.text, noNonce.signature],
        [await fresh().then((b) => JSON.stringify(b)), 'not base64!'],
      ];
      for (const [text, signature] of cases) {
        const res = await enrollRaw(text, signature).expect(403);
        expect(res.body).toEqual({
          code: 'enroll_source_auth_failed',
          message: expect.any(String),
        });
      }
      expect(await rowCounts(t)).toEqual(before);
    });
  });

  it('strict refuses a software key on Windows and Linux even with a valid signature, cleanly', async () => {
    const res = await setPolicy({ mode: 'strict' }).expect(200);
    expect(res.body).toMatchObject({ mode: 'strict', available: true });
    for (const platform of ['linux', 'windows']) {
      const serial = uniqueSerial();
      const csr = opensslCsr('ec', serial);
      const signed = signedBody(
        await body(csr, serial, { platform, source_nonce: await nonce(t, 'source-nonce') }),
        csr.keyPem,
      );
      const before = await rowCounts(t);
      expect((await enrollRaw(signed.text, signed.signature).expect(403)).body.code).toBe(
        'enroll_source_auth_failed',
      );
      expect(await rowCounts(t)).toEqual(before);
    }
    await setPolicy({ mode: 'off' }).expect(200);
  });

  it('strict asks macOS agents for the signature only (there is no TPM chain to check)', async () => {
    await setPolicy({ mode: 'strict' }).expect(200);
    const serial = uniqueSerial();
    const csr = opensslCsr('ec', serial);
    const unsigned = await body(csr, serial, { platform: 'macos' });
    expect((await enrollRaw(JSON.stringify(unsigned)).expect(403)).body.code).toBe(
      'enroll_source_auth_failed',
    );
    const signed = signedBody(
      await body(csr, serial, { platform: 'macos', source_nonce: await nonce(t, 'source-nonce') }),
      csr.keyPem,
    );
    const enrolled = await enrollRaw(signed.text, signed.signature).expect(201);
    const [row] = await sql<{ source_auth: string }>(
      t,
      'SELECT source_auth FROM certificate_requests WHERE id = $1',
      [enrolled.body.request_id],
    );
    expect(row.source_auth).toBe('signature_valid');
    await setPolicy({ mode: 'off' }).expect(200);
  });
});
