import { sshKeygenDumpKrl, sshKeygenQueryKrl } from '@platform/pki/testing';
import { sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { agentCertificate, issuedSsh, servedKrl } from './ssh-support';

/** Serials the KRL lists (`ssh-keygen -Q -l`: `serial: N` or `serial: A-B`). */
function listedSerials(krl: Buffer): bigint[] {
  const serials: bigint[] = [];
  for (const m of sshKeygenDumpKrl(krl).out.matchAll(/^serial: (\d+)(?:-(\d+))?$/gm)) {
    for (let s = BigInt(m[1]); s <= BigInt(m[2] ?? m[1]); s++) serials.push(s);
  }
  return serials;
}

const krlVersion = async (t: TestApp) =>
  (await sql<{ version: string }>(t, `SELECT version::text FROM ssh_krl_state`))[0]?.version;

describe('SSH across restarts - the CA persists, SSH switched off, a KRL published at every start', () => {
  let first: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    first = await startEnrollApp();
    admin = await loginAdmin(first);
  });
  afterAll(() => first.close());

  it('keeps the CA, answers ssh_disabled while off, and publishes revocations and expiries at the next start', async () => {
    const caKey = (await first.http.get('/api/v1/ssh/ca-public-key').expect(200)).body.public_key;
    const revokedWhileOff = await issuedSsh(first, admin);
    const kept = await issuedSsh(first, admin);
    const expired = await issuedSsh(first, admin);
    await first.http
      .post(`/api/v1/certificates/${expired.certificate.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    expect(listedSerials((await servedKrl(first)).bytes)).toContain(
      BigInt(expired.certificate.ssh_serial),
    );
    // The revoked certificate expires (its validity ends; here: moved into the past).
    await sql(
      first,
      `UPDATE ssh_certificates SET valid_after = now() - interval '2 days',
         valid_before = now() - interval '1 hour' WHERE serial = $1`,
      [expired.certificate.ssh_serial],
    );

    const off = await startEnrollApp({
      database: first.db,
      env: { CERTSVC_FEATURES_SSH: 'false' },
    });
    try {
      const offAdmin = await loginAdmin(off);
      const versionBefore = await krlVersion(off);
      expect((await off.http.get('/api/v1/ssh/ca-public-key').expect(404)).body.code).toBe(
        'ssh_disabled',
      );
      const fetch = await agentCertificate(off, kept.request).expect(404);
      expect(fetch.body.code).toBe('ssh_disabled');
      const revoked = await off.http
        .post(`/api/v1/certificates/${revokedWhileOff.certificate.serial}/revoke`)
        .set(...bearer(offAdmin.accessToken))
        .send({ reason: 'keyCompromise' })
        .expect(200);
      expect(revoked.body).toMatchObject({ status: 'revoked', purpose: 'ssh' });
      expect(await krlVersion(off)).toBe(versionBefore);
    } finally {
      await off.close();
    }

    const again = await startEnrollApp({ database: first.db });
    try {
      const served = await again.http.get('/api/v1/ssh/ca-public-key').expect(200);
      expect(served.body.public_key).toBe(caKey);
      expect(await sql(again, `SELECT 1 FROM ssh_ca_material`)).toHaveLength(1);
      const krl = await servedKrl(again);
      const query = sshKeygenQueryKrl(krl.bytes, [revokedWhileOff.certificate.ssh_certificate]);
      expect(query).toMatchObject({ status: 1, out: expect.stringContaining('REVOKED') });
      expect(sshKeygenQueryKrl(krl.bytes, [kept.certificate.ssh_certificate]).status).toBe(0);
      const serials = listedSerials(krl.bytes);
      expect(serials).toContain(BigInt(revokedWhileOff.certificate.ssh_serial));
      expect(serials).not.toContain(BigInt(expired.certificate.ssh_serial));
      // The agent gets its certificate again, signed by the same CA.
      const fetched = await agentCertificate(again, kept.request).expect(200);
      expect(fetched.body.ca_public_key).toBe(caKey);
    } finally {
      await again.close();
    }
  });
});
