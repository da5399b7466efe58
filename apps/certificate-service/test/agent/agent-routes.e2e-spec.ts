import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enrollDevice, sql, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import { issueCertificate } from '../fixtures/issue';
import { loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

/** `openssl verify -CAfile` of the delivered certificate against the delivered CA bundle. */
function opensslVerify(certificatePem: string, caBundlePem: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'certsvc-verify-'));
  try {
    writeFileSync(join(dir, 'ca.pem'), caBundlePem);
    writeFileSync(join(dir, 'cert.pem'), certificatePem);
    return execFileSync('openssl', ['verify', '-CAfile', 'ca.pem', 'cert.pem'], {
      cwd: dir,
    }).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Agent routes - /api/v1/requests/{id}/status, checkin, bundle-version, certificate (GET, POST)', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const get = (d: EnrolledDevice, route: string, secret = d.agentSecret) =>
    t.http.get(`/api/v1/requests/${d.requestId}/${route}`).set('x-agent-secret', secret);

  /** Approval through the admin API: the built-in CA issues the certificate. */
  const issue = (d: EnrolledDevice) => issueCertificate(t, admin.accessToken, d);

  it('reports the status of a pending request', async () => {
    const d = await enrollDevice(t);
    const res = await get(d, 'status').expect(200);
    expect(res.body).toMatchObject({
      request_id: d.requestId,
      status: 'pending',
      terminal: false,
      purpose: 'wifi',
      decided_at: null,
    });
  });

  it('refuses a wrong or missing secret, an unknown or malformed id with 401 agent_unauthorized', async () => {
    const d = await enrollDevice(t);
    const other = await enrollDevice(t);
    for (const res of [
      await get(d, 'status', 'was_wrong'),
      await get(d, 'status', other.agentSecret),
      await t.http.get(`/api/v1/requests/${d.requestId}/status`),
      await t.http
        .get(`/api/v1/requests/${randomUUID()}/status`)
        .set('x-agent-secret', d.agentSecret),
      await t.http
        .get('/api/v1/requests/not-a-uuid/certificate')
        .set('x-agent-secret', d.agentSecret),
      await t.http
        .post(`/api/v1/requests/${d.requestId}/checkin`)
        .set('x-agent-secret', 'was_wrong'),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('agent_unauthorized');
    }
  });

  it('answers 409 certificate_not_issued while undecided and 404 when rejected', async () => {
    const d = await enrollDevice(t);
    expect((await get(d, 'certificate').expect(409)).body.code).toBe('certificate_not_issued');
    expect((await get(d, 'bundle-version').expect(409)).body.code).toBe('certificate_not_issued');
    await sql(t, `UPDATE certificate_requests SET status = 'rejected' WHERE id = $1`, [
      d.requestId,
    ]);
    expect((await get(d, 'certificate').expect(404)).body.code).toBe('certificate_not_found');
    expect((await get(d, 'status').expect(200)).body).toMatchObject({
      status: 'rejected',
      terminal: true,
    });
  });

  it('delivers the certificate and CA bundle with an ETag, 304 for If-None-Match, and a matching bundle version', async () => {
    const d = await enrollDevice(t);
    await issue(d);
    const res = await get(d, 'certificate').expect(200);
    expect(res.body.certificate_pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(opensslVerify(res.body.certificate_pem, res.body.ca_bundle_pem)).toContain(
      'cert.pem: OK',
    );
    const etag = res.headers.etag as string;
    expect(etag).toBe(`"${res.body.bundle_version}"`);
    const probe = await get(d, 'bundle-version').expect(200);
    expect(probe.body.bundle_version).toBe(res.body.bundle_version);
    const again = await get(d, 'certificate').set('if-none-match', etag).expect(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(etag);
    await get(d, 'certificate').set('if-none-match', '"stale"').expect(200);
  });

  it('records a check-in once the certificate is issued', async () => {
    const d = await enrollDevice(t);
    expect(
      (
        await t.http
          .post(`/api/v1/requests/${d.requestId}/checkin`)
          .set('x-agent-secret', d.agentSecret)
          .send({ agent_version: '2.4.2' })
          .expect(409)
      ).body.code,
    ).toBe('certificate_not_issued');
    await issue(d);
    const res = await t.http
      .post(`/api/v1/requests/${d.requestId}/checkin`)
      .set('x-agent-secret', d.agentSecret)
      .send({ agent_version: '2.4.2' })
      .expect(200);
    const [row] = await sql<{ installed_at: Date; installed_agent_version: string }>(
      t,
      'SELECT installed_at, installed_agent_version FROM certificate_requests WHERE id = $1',
      [d.requestId],
    );
    expect(row.installed_agent_version).toBe('2.4.2');
    expect(new Date(row.installed_at).toISOString()).toBe(res.body.installed_at);
  });

  it('says blocked: true in the check-in answer while the device is blocked (device revoke), false again after the unblock', async () => {
    const d = await enrollDevice(t);
    await issue(d);
    const checkin = async () =>
      (
        await t.http
          .post(`/api/v1/requests/${d.requestId}/checkin`)
          .set('x-agent-secret', d.agentSecret)
          .send({})
          .expect(200)
      ).body as { blocked: boolean };
    expect((await checkin()).blocked).toBe(false);
    const admin_ = (path: string) =>
      t.http.post(path).set('authorization', `Bearer ${admin.accessToken}`);
    await admin_(`/api/v1/devices/${d.serial}/revoke`).expect(200);
    expect((await checkin()).blocked).toBe(true);
    await admin_(`/api/v1/devices/${d.serial}/unblock`).expect(200);
    expect((await checkin()).blocked).toBe(false);
  });

  it('logs successful agent polling at debug', async () => {
    const d = await enrollDevice(t);
    await get(d, 'status').expect(200);
    const line = t.logs
      .accessLines()
      .find((l) => l.route === '/api/v1/requests/:id/status' && l.status === 200);
    expect(line?.level).toBe('debug');
  });
});

describe('Agent rate limit - /api/v1/requests/{id}/status (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp({ env: { CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('limits calls per request id', async () => {
    const d = await enrollDevice(t);
    const other = await enrollDevice(t);
    for (let i = 0; i < 3; i++)
      await t.http
        .get(`/api/v1/requests/${d.requestId}/status`)
        .set('x-agent-secret', d.agentSecret)
        .expect(200);
    const res = await t.http
      .get(`/api/v1/requests/${d.requestId}/status`)
      .set('x-agent-secret', d.agentSecret)
      .expect(429);
    expect(res.body.code).toBe('rate_limited');
    await t.http
      .get(`/api/v1/requests/${other.requestId}/status`)
      .set('x-agent-secret', other.agentSecret)
      .expect(200);
  });
});
