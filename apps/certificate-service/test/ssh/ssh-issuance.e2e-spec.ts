import {
  parseListedCertificate,
  sshKeygenListCertificate,
  sshKeygenQueryKrl,
  type SshKeygenKind,
} from '@platform/pki/testing';
import { sql, startEnrollApp } from '../fixtures/enroll';
import { bearer, createServiceAccount, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';
import {
  agentCertificate,
  approveSsh,
  issuedSsh,
  servedKrl,
  sshRequest,
  type AgentSshCertificate,
} from './ssh-support';

const KINDS: [SshKeygenKind, string][] = [
  ['ed25519', 'ssh-ed25519'],
  ['ecdsa-256', 'ecdsa-sha2-nistp256'],
  ['ecdsa-384', 'ecdsa-sha2-nistp384'],
  ['ecdsa-521', 'ecdsa-sha2-nistp521'],
  ['rsa-3072', 'ssh-rsa'],
];

/** `ssh-keygen -L` prints validity to the second, without a zone (TZ=UTC). */
function keygenTime(iso: string): string {
  return iso.slice(0, 19);
}

describe('SSH certificates - /enroll/ssh, approval, /requests/{id}/certificate, /certificates/ssh-{serial}/revoke', () => {
  let t: TestApp;
  let admin: TestUser;
  let caPublicKey: string;
  let caFingerprint: string;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    const ca = await t.http.get('/api/v1/ssh/ca-public-key').expect(200);
    caPublicKey = ca.body.public_key as string;
    caFingerprint = ca.body.fingerprint as string;
    await t.http
      .post('/api/v1/admin/principal-aliases')
      .set(...bearer(admin.accessToken))
      .send({ name: 'deploy', members: ['alice@corp.example.com'] })
      .expect(201);
  });
  afterAll(() => t.close());

  it.each(KINDS)(
    'issues a %s certificate on approval that ssh-keygen -L reads: principals, key id, serial, 24 h validity, extensions',
    async (kind, type) => {
      const before = Date.now();
      const { request, certificate } = await issuedSsh(t, admin, { kind });
      expect(certificate).toEqual({
        request_id: request.requestId,
        purpose: 'ssh',
        serial: `ssh-${certificate.ssh_serial}`,
        ssh_serial: expect.stringMatching(/^[1-9][0-9]*$/),
        ssh_certificate: expect.stringMatching(
          new RegExp(`^${type.replace(/[.]/g, '\\.')}-cert-v01@openssh\\.com AAAA\\S+$`),
        ),
        ca_public_key: caPublicKey,
        key_id: `certsvc:${request.requestId}:${request.device.serial}`,
        principals: ['alice', 'deploy'],
        not_before: expect.any(String),
        not_after: expect.any(String),
        bundle_version: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      const listed = parseListedCertificate(sshKeygenListCertificate(certificate.ssh_certificate));
      expect(listed).toEqual({
        type: `${type}-cert-v01@openssh.com user certificate`,
        keyId: certificate.key_id,
        serial: BigInt(certificate.ssh_serial),
        validFrom: keygenTime(certificate.not_before),
        validTo: keygenTime(certificate.not_after),
        principals: ['alice', 'deploy'],
        criticalOptions: [],
        extensions: ['permit-agent-forwarding', 'permit-port-forwarding', 'permit-pty'],
        signingCa: `ED25519 ${caFingerprint} (using ssh-ed25519)`,
      });
      // The certificate certifies the key the agent sent.
      expect(certificate.ssh_certificate.split(' ')[1]).not.toBe(request.publicKey.split(' ')[1]);
      const notBefore = Date.parse(certificate.not_before);
      const notAfter = Date.parse(certificate.not_after);
      expect(notAfter - notBefore).toBe(24 * 3600_000 + 5 * 60_000);
      expect(notBefore).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 5 * 60_000);
      expect(notBefore).toBeLessThanOrEqual(Date.now() - 5 * 60_000);
      const [row] = await sql<{ status: string }>(
        t,
        `SELECT status FROM certificate_requests WHERE id = $1`,
        [request.requestId],
      );
      expect(row.status).toBe('issued');
    },
  );

  it('answers the agent 304 for the current ETag, 409 while pending and keeps one certificate per request', async () => {
    const request = await sshRequest(t, admin);
    expect((await agentCertificate(t, request).expect(409)).body.code).toBe(
      'certificate_not_issued',
    );
    const [row] = await approveSsh(t, admin.accessToken, [request.requestId]);
    expect(row).toEqual({
      request_id: request.requestId,
      status: 'issued',
      serial: expect.stringMatching(/^ssh-\d+$/),
    });
    const first = await agentCertificate(t, request).expect(200);
    expect(first.headers['etag']).toBe(`"${first.body.bundle_version}"`);
    const notModified = await agentCertificate(t, request, first.headers['etag'] as string).expect(
      304,
    );
    expect(notModified.text).toBe('');
    const stale = await agentCertificate(t, request, '"0123"').expect(200);
    expect(stale.body).toEqual(first.body);
    // Approving again changes nothing.
    const [again] = await approveSsh(t, admin.accessToken, [request.requestId]);
    expect(again).toMatchObject({ status: 'error', error: 'request_not_pending' });
    expect(
      await sql(t, `SELECT serial FROM ssh_certificates WHERE request_id = $1`, [
        request.requestId,
      ]),
    ).toHaveLength(1);
    // A wrong agent secret opens nothing.
    await agentCertificate(t, { ...request, agentSecret: 'was_wrong' }).expect(401);
  });

  it('bulk-approves SSH requests with X.509 ones in one call: distinct serials, one INSERT; a device without owner stays pending', async () => {
    const sshRows = await Promise.all(
      (['ed25519', 'ecdsa-256', 'ed25519', 'rsa-3072'] as SshKeygenKind[]).map((kind) =>
        sshRequest(t, admin, { kind, owner: 'bob@corp.example.com' }),
      ),
    );
    const orphan = await sshRequest(t, admin, { owner: null });
    const sa = await createServiceAccount(t, admin, { allowed_purposes: ['ssh', 'wifi'] });
    // The devices' own X.509 (wifi) requests go in the same call.
    const x509 = sshRows.slice(0, 2).map((r) => r.device.requestId);
    const ids = [...sshRows.map((r) => r.requestId), x509[0], orphan.requestId, x509[1]];
    const results = await approveSsh(t, sa.token, ids);
    const byId = new Map(results.map((r) => [r.request_id, r]));
    for (const r of sshRows) expect(byId.get(r.requestId)).toMatchObject({ status: 'issued' });
    expect(byId.get(orphan.requestId)).toEqual({
      request_id: orphan.requestId,
      status: 'error',
      error: 'ssh_principals_missing',
    });
    for (const id of x509) {
      expect(byId.get(id)).toEqual({
        request_id: id,
        status: 'issued',
        serial: expect.stringMatching(/^[0-9a-f]+$/),
      });
    }
    const serials = sshRows.map((r) => byId.get(r.requestId)?.serial);
    expect(new Set(serials).size).toBe(sshRows.length);
    const [pending] = await sql<{ status: string }>(
      t,
      `SELECT status FROM certificate_requests WHERE id = $1`,
      [orphan.requestId],
    );
    expect(pending.status).toBe('pending');
    for (const r of sshRows) {
      const cert = (await agentCertificate(t, r).expect(200)).body as AgentSshCertificate;
      const listed = parseListedCertificate(sshKeygenListCertificate(cert.ssh_certificate));
      expect(listed.principals).toEqual(['bob']);
      expect(`ssh-${listed.serial}`).toBe(byId.get(r.requestId)?.serial);
    }
    // Once the device has an owner the same request is approved.
    await t.http
      .put(`/api/v1/devices/${orphan.device.serial}/owner`)
      .set(...bearer(admin.accessToken))
      .send({ owner: 'dave@corp.example.com' })
      .expect(200);
    const [later] = await approveSsh(t, admin.accessToken, [orphan.requestId]);
    expect(later).toMatchObject({ status: 'issued' });
  });

  it('refuses approval by a service account not allowed the ssh purpose', async () => {
    const request = await sshRequest(t, admin);
    const sa = await createServiceAccount(t, admin, { allowed_purposes: ['wifi'] });
    const results = await approveSsh(t, sa.token, [request.requestId]);
    expect(results).toEqual([
      { request_id: request.requestId, status: 'error', error: 'purpose_not_allowed' },
    ]);
    const [stored] = await sql<{ status: string }>(
      t,
      `SELECT status FROM certificate_requests WHERE id = $1`,
      [request.requestId],
    );
    expect(stored.status).toBe('pending');
  });

  it('rejects an SSH request like any other: no certificate', async () => {
    const request = await sshRequest(t, admin);
    await t.http
      .post('/api/v1/requests/reject')
      .set(...bearer(admin.accessToken))
      .send({ request_ids: [request.requestId], reason: 'not needed' })
      .expect(200);
    expect(
      await sql(t, `SELECT 1 FROM ssh_certificates WHERE request_id = $1`, [request.requestId]),
    ).toEqual([]);
    expect((await agentCertificate(t, request)).status).toBe(404);
  });

  it('revokes one SSH certificate by ssh-<serial>: into a new KRL (ssh-keygen -Q REVOKED), others stay fine', async () => {
    const revoked = await issuedSsh(t, admin);
    const kept = await issuedSsh(t, admin, { kind: 'ecdsa-384' });
    const before = await servedKrl(t);
    expect(sshKeygenQueryKrl(before.bytes, [revoked.certificate.ssh_certificate]).status).toBe(0);
    const res = await t.http
      .post(`/api/v1/certificates/${revoked.certificate.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    expect(res.body).toMatchObject({
      serial: revoked.certificate.serial,
      purpose: 'ssh',
      status: 'revoked',
    });
    const after = await servedKrl(t, before.etag);
    expect(after.status).toBe(200);
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(before.version));
    const query = sshKeygenQueryKrl(after.bytes, [revoked.certificate.ssh_certificate]);
    expect(query.status).toBe(1);
    expect(query.out).toContain('REVOKED');
    expect(sshKeygenQueryKrl(after.bytes, [kept.certificate.ssh_certificate]).status).toBe(0);
    // Repeat: answered as it is, no new KRL.
    await t.http
      .post(`/api/v1/certificates/${revoked.certificate.serial}/revoke`)
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(200);
    expect((await servedKrl(t, after.etag)).status).toBe(304);
    // Unknown SSH serial: 404.
    await t.http
      .post('/api/v1/certificates/ssh-999999999/revoke')
      .set(...bearer(admin.accessToken))
      .send({ reason: 'keyCompromise' })
      .expect(404);
  });
});

describe('SSH certificates - licence slots at approval, as for every purpose', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_DEFAULT_MAX_DEVICES: '2' } });
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it('counts a device at its first SSH certificate, refuses a third device (402 / license_limit row) and never a renewal', async () => {
    const first = await sshRequest(t, admin);
    const second = await sshRequest(t, admin);
    const third = await sshRequest(t, admin);
    expect(await approveSsh(t, admin.accessToken, [first.requestId])).toEqual([
      expect.objectContaining({ status: 'issued' }),
    ]);
    // The same device's X.509 request takes no second slot.
    expect(await approveSsh(t, admin.accessToken, [first.device.requestId])).toEqual([
      expect.objectContaining({ status: 'issued' }),
    ]);
    expect(await approveSsh(t, admin.accessToken, [second.requestId])).toEqual([
      expect.objectContaining({ status: 'issued' }),
    ]);
    const single = await t.http
      .post('/api/v1/requests/approve')
      .set(...bearer(admin.accessToken))
      .send({ request_ids: [third.requestId] })
      .expect(402);
    expect(single.body.code).toBe('license_limit');
    const renewal = await sshRequest(t, admin, { device: first.device });
    const rows = await approveSsh(t, admin.accessToken, [third.requestId, renewal.requestId]);
    expect(rows).toEqual([
      { request_id: third.requestId, status: 'error', error: 'license_limit' },
      expect.objectContaining({ request_id: renewal.requestId, status: 'issued' }),
    ]);
    const [pending] = await sql<{ status: string }>(
      t,
      `SELECT status FROM certificate_requests WHERE id = $1`,
      [third.requestId],
    );
    expect(pending.status).toBe('pending');
    expect(
      await sql(t, `SELECT 1 FROM ssh_certificates WHERE request_id = $1`, [third.requestId]),
    ).toEqual([]);
  });
});
