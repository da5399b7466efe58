import { X509Certificate } from 'node:crypto';
import { sha256Fingerprint } from '@platform/pki';
import { startScepServer, type RunningScepServer } from '@platform/pki/testing';
import { enrollDevice, sql } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { ProfileIssuers } from '../../src/modules/issuer-profiles/profile-issuers';
import { ISSUER_TEST_ENV, putProfile, testConnection } from './issuer-support';

describe('SCEP issuer profile - through the routes to the real scepserver', () => {
  let t: TestApp;
  let admin: TestUser;
  let server: RunningScepServer;
  let fingerprint: string;
  beforeAll(async () => {
    // no -challenge: the device's CSR (forwarded unchanged) carries no challengePassword
    server = await startScepServer();
    fingerprint = sha256Fingerprint(new X509Certificate(server.caCertificatePem).raw);
    // scepserver speaks plain http on loopback
    t = await startTestApp({
      env: { ...ISSUER_TEST_ENV, CERTSVC_ISSUER_EGRESS_ALLOW_HTTP: 'true' },
    });
    admin = await loginAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await server.stop();
  });

  it('PUT generates the requester identity once, keeps it on the next PUT, returns no secret', async () => {
    const body = {
      kind: 'scep',
      url: server.url,
      ca_fingerprint: fingerprint.toUpperCase().replace(/(..)(?!$)/g, '$1:'),
      challenge_password: 'scep-challenge',
    };
    const first = await putProfile(t, admin.accessToken, 'wifi', body).expect(200);
    expect(first.body).toMatchObject({
      kind: 'scep',
      configured: true,
      settings: { url: server.url, ca_fingerprint: fingerprint },
      has_secrets: { challenge_password: true, requester_key_pem: true },
    });
    const requesterPem = (first.body as { settings: { requester_certificate_pem: string } })
      .settings.requester_certificate_pem;
    expect(requesterPem).toContain('BEGIN CERTIFICATE');
    expect(JSON.stringify(first.body)).not.toMatch(/PRIVATE KEY|scep-challenge/);
    const { challenge_password: _kept, ...withoutSecret } = body;
    const second = await putProfile(t, admin.accessToken, 'wifi', withoutSecret).expect(200);
    expect(second.body).toMatchObject({
      settings: { requester_certificate_pem: requesterPem },
      has_secrets: { challenge_password: true, requester_key_pem: true },
    });
    const issuer = await t.http.get('/api/v1/issuer').expect(200);
    expect(issuer.body).toMatchObject({ kind: 'scep', async: true, supports_revoke: false });
  });

  it('test-connection: GetCACaps, GetCACert and the pin pass; a wrong pin fails at pin', async () => {
    const ok = await testConnection(t, admin.accessToken, 'wifi');
    expect(ok).toMatchObject({ ok: true, failed_step: null });
    expect(ok.steps.map((s) => s.step)).toEqual([
      'config',
      'dns',
      'connect',
      'http_status',
      'parse',
      'pin',
      'auth',
    ]);
    await putProfile(t, admin.accessToken, 'vpn', {
      kind: 'scep',
      url: server.url,
      ca_fingerprint: 'ab'.repeat(32),
    }).expect(200);
    expect(await testConnection(t, admin.accessToken, 'vpn')).toMatchObject({
      ok: false,
      failed_step: 'pin',
    });
  });

  it('enroll -> approve -> issued by the scepserver named in the profile', async () => {
    await putProfile(t, admin.accessToken, 'wifi', {
      kind: 'scep',
      url: server.url,
      ca_fingerprint: fingerprint,
      challenge_password: 'scep-challenge',
    }).expect(200);
    // scepserver 2.1 signs only RSA CSRs
    const device = await enrollDevice(t, { kind: 'rsa' });
    const [row] = await approveRows(t, admin.accessToken, [device.requestId]);
    expect(row).toEqual({ request_id: device.requestId, status: 'issued', serial: row.serial });
    const [cert] = await sql<{ issuer_kind: string; chain_pem: string }>(
      t,
      `SELECT issuer_kind, chain_pem FROM certificates WHERE request_id = $1`,
      [device.requestId],
    );
    expect(cert.issuer_kind).toBe('scep');
    expect(
      new X509Certificate(cert.chain_pem).raw.equals(
        new X509Certificate(server.caCertificatePem).raw,
      ),
    ).toBe(true);
  });

  it('secrets the key cannot open: the requester is generated anew, a missing password must be sent again', async () => {
    await putProfile(t, admin.accessToken, 'ad_logon', {
      kind: 'scep',
      url: server.url,
      ca_fingerprint: fingerprint,
    }).expect(200);
    // as if CERTSVC_SCEP_ENC_KEY had changed: the stored envelope no longer opens
    await sql(
      t,
      `UPDATE issuer_profiles SET sealed_secrets = 'v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA:AAAA' WHERE purpose = 'ad_logon'`,
    );
    await t.app.get(ProfileIssuers).reload();
    const broken = await t.http.get('/api/v1/issuer').expect(200);
    expect(
      (broken.body as { by_purpose: { purpose: string; configured: boolean }[] }).by_purpose.find(
        (p) => p.purpose === 'ad_logon',
      ),
    ).toMatchObject({ configured: false });
    const refused = await putProfile(t, admin.accessToken, 'ad_logon', {
      kind: 'scep',
      url: server.url,
      ca_fingerprint: fingerprint,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('issuer_secret_unreadable');
    expect(refused.body.message).toContain('send challenge_password');
    const saved = await putProfile(t, admin.accessToken, 'ad_logon', {
      kind: 'scep',
      url: server.url,
      ca_fingerprint: fingerprint,
      challenge_password: 'again',
    }).expect(200);
    expect(saved.body).toMatchObject({
      configured: true,
      has_secrets: { challenge_password: true, requester_key_pem: true },
    });
  });
});
