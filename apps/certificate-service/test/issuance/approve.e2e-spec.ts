import { randomUUID } from 'node:crypto';
import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
import {
  bearer,
  createServiceAccount,
  createUser,
  loginAdmin,
  type TestUser,
} from '../support/sessions';
import type { TestApp } from '../support/test-app';
import { approve, approveRows, issuedDevice, reenroll } from '../fixtures/issue';
import {
  bundleOf,
  calendarYearsAfter,
  certificateValidity,
  verifyBundle,
  x509Text,
} from './issuance-support';

describe('Approve - /api/v1/requests/approve (POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  it.each(['ec', 'rsa'] as const)(
    'issues a wifi certificate for an openssl %s CSR that openssl verifies against the served chain',
    async (kind) => {
      const d = await enrollDevice(t, { kind });
      const [row] = await approveRows(t, admin.accessToken, [d.requestId]);
      expect(row).toMatchObject({ request_id: d.requestId, status: 'issued' });
      expect(row.serial).toMatch(/^[0-9a-f]{32}$/);
      const bundle = await bundleOf(t, admin.accessToken, row.serial ?? '');
      const verified = verifyBundle(bundle);
      expect(verified.out).toContain('OK');
      expect(verified.ok).toBe(true);
      const text = x509Text(bundle['certificate.pem']);
      expect(text).toContain('TLS Web Client Authentication');
      expect(text).toContain(`Subject: CN = ${d.serial}`);
      expect(text).not.toContain('Smartcard');
      const validity = certificateValidity(bundle['certificate.pem']);
      expect(validity.notAfter).toEqual(calendarYearsAfter(validity.issuedAt, 3));
      const [stored] = await sql<{ status: string; decided_by: string }>(
        t,
        `SELECT status, decided_by FROM certificate_requests WHERE id = $1`,
        [d.requestId],
      );
      expect(stored).toEqual({ status: 'issued', decided_by: admin.email });
    },
  );

  it('delivers the issued certificate to the agent', async () => {
    const d = await enrollDevice(t);
    const [row] = await approveRows(t, admin.accessToken, [d.requestId]);
    const res = await t.http
      .get(`/api/v1/requests/${d.requestId}/certificate`)
      .set('x-agent-secret', d.agentSecret)
      .expect(200);
    expect(res.body).toMatchObject({ serial: row.serial });
  });

  it('issues user purposes with their EKUs, UPN SAN and one-year lifetime', async () => {
    const d = await enrollDevice(t);
    await t.http
      .put(`/api/v1/devices/${d.serial}/purposes`)
      .set(...bearer(admin.accessToken))
      .send({ purposes: ['wifi', 'user_mtls', 'ad_logon'] })
      .expect(200);
    const user = async (purpose: string) => {
      const res = await t.http
        .post('/api/v1/enroll/user')
        .send({
          serial: d.serial,
          enrollment_token: d.enrollmentToken,
          csr: opensslCsr('ec', 'alice').csrPem,
          purpose,
          user: 'alice@corp.example.com',
          upn: 'alice@corp.example.com',
        })
        .expect(201);
      return (res.body as { request_id: string }).request_id;
    };
    const ids = [await user('user_mtls'), await user('ad_logon')];
    const rows = await approveRows(t, admin.accessToken, ids);
    expect(rows.map((r) => r.status)).toEqual(['issued', 'issued']);
    const [mtls, logon] = await Promise.all(
      rows.map((r) => bundleOf(t, admin.accessToken, r.serial ?? '')),
    );
    expect(verifyBundle(mtls).ok).toBe(true);
    expect(verifyBundle(logon).ok).toBe(true);
    expect(x509Text(mtls['certificate.pem'])).toContain('TLS Web Client Authentication');
    const mtlsValidity = certificateValidity(mtls['certificate.pem']);
    expect(mtlsValidity.notAfter).toEqual(calendarYearsAfter(mtlsValidity.issuedAt, 1));
    const logonText = x509Text(logon['certificate.pem']);
    expect(logonText).toMatch(/Smartcard Login|1\.3\.6\.1\.4\.1\.311\.20\.2\.2/);
    expect(logonText).toMatch(/UPN|1\.3\.6\.1\.4\.1\.311\.20\.2\.3/);
    expect(logonText).toContain('alice@corp.example.com');
    const logonValidity = certificateValidity(logon['certificate.pem']);
    expect(logonValidity.notAfter).toEqual(calendarYearsAfter(logonValidity.issuedAt, 1));
  });

  it('answers 200 with one row per request and refuses terminal and unknown requests', async () => {
    const issued = await enrollDevice(t);
    await approveRows(t, admin.accessToken, [issued.requestId]);
    const rejected = await enrollDevice(t);
    await t.http
      .post('/api/v1/requests/reject')
      .set(...bearer(admin.accessToken))
      .send({ request_ids: [rejected.requestId] })
      .expect(200);
    const fresh = await enrollDevice(t);
    const unknown = randomUUID();
    const rows = await approveRows(t, admin.accessToken, [
      issued.requestId,
      rejected.requestId,
      fresh.requestId,
      unknown,
    ]);
    expect(rows).toEqual([
      { request_id: issued.requestId, status: 'error', error: 'request_not_pending' },
      { request_id: rejected.requestId, status: 'error', error: 'request_not_pending' },
      { request_id: fresh.requestId, status: 'issued', serial: expect.any(String) },
      { request_id: unknown, status: 'error', error: 'request_not_found' },
    ]);
    const [one] = await approveRows(t, admin.accessToken, [issued.requestId]);
    expect(one.error).toBe('request_not_pending');
  });

  it('lets a person approve a request of a blocked device (only the terminal check applies)', async () => {
    const d = await enrollDevice(t);
    await sql(t, `UPDATE devices SET blocked = true WHERE serial = $1`, [d.serial]);
    const [row] = await approveRows(t, admin.accessToken, [d.requestId]);
    expect(row.status).toBe('issued');
  });

  it('runs the service-account checks in order: purpose, corp ownership, device block', async () => {
    const sa = await createServiceAccount(t, admin, { allowed_purposes: ['wifi'] });
    await t.http
      .put('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .send({ policy: 'allowlist' })
      .expect(200);
    const device = await enrollDevice(t);
    await t.http
      .put(`/api/v1/devices/${device.serial}/purposes`)
      .set(...bearer(admin.accessToken))
      .send({ purposes: ['wifi', 'user_mtls'] })
      .expect(200);
    const userReq = await t.http
      .post('/api/v1/enroll/user')
      .send({
        serial: device.serial,
        enrollment_token: device.enrollmentToken,
        csr: opensslCsr('ec', 'bob').csrPem,
        purpose: 'user_mtls',
        user: 'bob@corp.example.com',
      })
      .expect(201);
    const userRequestId = (userReq.body as { request_id: string }).request_id;
    // Device blocked, not on the allowlist, and the user purpose is not allowed for the token.
    await sql(t, `UPDATE devices SET blocked = true WHERE serial = $1`, [device.serial]);
    const listed = await enrollDevice(t);
    const blockedListed = await enrollDevice(t);
    const flagged = await enrollDevice(t);
    for (const serial of [listed.serial, blockedListed.serial, flagged.serial]) {
      await t.http
        .post('/api/v1/admin/corp-allowlist')
        .set(...bearer(admin.accessToken))
        .send({ serial })
        .expect(201);
    }
    await sql(t, `UPDATE devices SET blocked = true WHERE serial = $1`, [blockedListed.serial]);
    await sql(t, `UPDATE certificate_requests SET registered_during_block = true WHERE id = $1`, [
      flagged.requestId,
    ]);
    const rows = await approveRows(t, sa.token, [
      userRequestId,
      device.requestId,
      blockedListed.requestId,
      flagged.requestId,
      listed.requestId,
    ]);
    expect(rows.map((r) => r.error ?? r.status)).toEqual([
      'purpose_not_allowed',
      'corp_ownership_denied',
      'device_blocked',
      'device_blocked',
      'issued',
    ]);
    const audit = await sql<{ actor: string; target: string }>(
      t,
      `SELECT actor, target FROM audit_log WHERE action = 'request.approve' AND target = $1`,
      [listed.requestId],
    );
    expect(audit).toEqual([{ actor: 'API', target: listed.requestId }]);
    await t.http
      .put('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .send({ policy: 'off' })
      .expect(200);
  });

  it('refuses a service-account approval when the corp check has no configuration (never permission)', async () => {
    const sa = await createServiceAccount(t, admin, { allowed_purposes: ['wifi'] });
    await t.http
      .put('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .send({ policy: 'webhook' })
      .expect(200);
    const d = await enrollDevice(t);
    const rows = await approveRows(t, sa.token, [d.requestId]);
    expect(rows[0].error).toBe('corp_ownership_denied');
    await t.http
      .put('/api/v1/settings/sa-auto-approve')
      .set(...bearer(admin.accessToken))
      .send({ policy: 'off' })
      .expect(200);
  });

  it('renews: the new certificate supersedes the previous one without revoking it', async () => {
    const first = await issuedDevice(t, admin.accessToken);
    const a = first.certificateSerial;
    const [b] = await approveRows(t, admin.accessToken, [(await reenroll(t, first)).requestId]);
    expect(b.status).toBe('issued');
    const rows = await sql<{ serial: string; status: string; superseded_by: string | null }>(
      t,
      `SELECT serial, status, superseded_by FROM certificates WHERE serial = ANY($1) ORDER BY created_at`,
      [[a, b.serial]],
    );
    expect(rows).toEqual([
      { serial: a, status: 'active', superseded_by: b.serial },
      { serial: b.serial, status: 'active', superseded_by: null },
    ]);
  });

  it('lets an approver approve and refuses bad input with 400', async () => {
    const approver = await createUser(t, admin, ['cert-approver']);
    const d = await enrollDevice(t);
    const [row] = await approveRows(t, approver.accessToken, [d.requestId]);
    expect(row.status).toBe('issued');
    const bad = await approve(t, admin.accessToken, ['not-a-uuid']).expect(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request' });
    await approve(t, admin.accessToken, []).expect(400);
  });
});
