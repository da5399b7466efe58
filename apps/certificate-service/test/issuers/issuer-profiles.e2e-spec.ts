import { DataSource } from 'typeorm';
import { EstStandIn, selfSignedTlsIdentity } from '@platform/pki/testing';
import { enrollDevice, sql } from '../fixtures/enroll';
import { approveRows } from '../fixtures/issue';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { ProfileIssuers } from '../../src/modules/issuer-profiles/profile-issuers';
import { estBasicProfile, ISSUER_TEST_ENV, putProfile, testConnection } from './issuer-support';

interface ProfileBody {
  purpose: string;
  kind: string;
  source: string;
  configured: boolean;
  problem: string | null;
  settings: Record<string, unknown>;
  has_secrets: Record<string, boolean>;
  updated_by: string | null;
}

describe('Issuer profiles - /api/v1/settings/issuers*', () => {
  let t: TestApp;
  let admin: TestUser;
  let est: EstStandIn;
  beforeAll(async () => {
    est = await EstStandIn.start({ basic: { username: 'ra', password: 'ra-secret' } });
    t = await startTestApp({ env: ISSUER_TEST_ENV });
    admin = await loginAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await est.close();
  });

  it('lists the four X.509 purposes with their effective issuer (CERTSVC_ISSUER default built_in)', async () => {
    const res = await t.http
      .get('/api/v1/settings/issuers')
      .set(...bearer(admin.accessToken))
      .expect(200);
    const items = (res.body as { items: ProfileBody[] }).items;
    expect(items.map((i) => i.purpose)).toEqual(['wifi', 'user_mtls', 'ad_logon', 'vpn']);
    for (const item of items) {
      expect(item).toMatchObject({ kind: 'built_in', source: 'default', configured: true });
    }
  });

  it('stores secrets sealed, never returns or audits them, and keeps them when a PUT omits them', async () => {
    const put = await putProfile(t, admin.accessToken, 'user_mtls', estBasicProfile(est)).expect(
      200,
    );
    const body = put.body as ProfileBody;
    expect(body).toMatchObject({
      purpose: 'user_mtls',
      kind: 'est',
      source: 'profile',
      configured: true,
      updated_by: admin.email,
      has_secrets: { password: true, client_key_pem: false },
      settings: { url: `${est.url}/`, auth_mode: 'basic', username: 'ra', label: null },
    });
    expect(JSON.stringify(body)).not.toContain('ra-secret');
    const [row] = await sql<{ sealed_secrets: string; settings: unknown }>(
      t,
      `SELECT sealed_secrets, settings FROM issuer_profiles WHERE purpose = 'user_mtls'`,
    );
    expect(row.sealed_secrets).toMatch(/^v1:/);
    expect(row.sealed_secrets).not.toContain('ra-secret');
    expect(JSON.stringify(row.settings)).not.toContain('ra-secret');
    const audit = await sql<{ details: unknown }>(
      t,
      `SELECT details FROM audit_log WHERE action = 'settings.issuer_profile_change' AND target = 'user_mtls'`,
    );
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0].details)).not.toContain('ra-secret');
    expect(audit[0].details).toMatchObject({
      old: null,
      new: { kind: 'est', secrets: { password: true } },
      secrets_changed: ['password'],
    });

    const one = await t.http
      .get('/api/v1/settings/issuers/user_mtls')
      .set(...bearer(admin.accessToken))
      .expect(200);
    expect(one.body).toEqual(body);
    // a PUT without the password keeps it: the connection test still authenticates
    const { password: _omitted, ...withoutPassword } = estBasicProfile(est);
    await putProfile(t, admin.accessToken, 'user_mtls', withoutPassword).expect(200);
    const result = await testConnection(t, admin.accessToken, 'user_mtls');
    expect(result).toMatchObject({ ok: true, failed_step: null });
    expect(result.steps.map((s) => s.step)).toEqual([
      'config',
      'dns',
      'connect',
      'tls',
      'http_status',
      'parse',
      'auth',
    ]);
    // switching to the built-in CA drops the secrets
    await putProfile(t, admin.accessToken, 'user_mtls', { kind: 'built_in' }).expect(200);
    const [cleared] = await sql<{ sealed_secrets: string | null }>(
      t,
      `SELECT sealed_secrets FROM issuer_profiles WHERE purpose = 'user_mtls'`,
    );
    expect(cleared.sealed_secrets).toBeNull();
  });

  it.each([
    ['an unknown purpose', 'issuer_purpose_invalid', 'ssh', { kind: 'built_in' }],
    ['an unknown kind', 'issuer_kind_invalid', 'vpn', { kind: 'acme' }],
    [
      'no url',
      'issuer_url_invalid',
      'vpn',
      { kind: 'est', auth_mode: 'basic', username: 'u', password: 'p' },
    ],
    [
      'plain http for EST',
      'issuer_url_invalid',
      'vpn',
      {
        kind: 'est',
        url: 'http://est.example.com',
        auth_mode: 'basic',
        username: 'u',
        password: 'p',
      },
    ],
    [
      'a metadata address',
      'issuer_url_invalid',
      'vpn',
      {
        kind: 'est',
        url: 'https://169.254.169.254',
        auth_mode: 'basic',
        username: 'u',
        password: 'p',
      },
    ],
    [
      'credentials in the url',
      'issuer_url_invalid',
      'vpn',
      {
        kind: 'est',
        url: 'https://u:p@est.example.com',
        auth_mode: 'basic',
        username: 'u',
        password: 'p',
      },
    ],
    [
      'a missing password',
      'issuer_secret_missing',
      'vpn',
      { kind: 'est', url: 'https://est.example.com', auth_mode: 'basic', username: 'u' },
    ],
    [
      'a missing client key',
      'issuer_secret_missing',
      'vpn',
      {
        kind: 'est',
        url: 'https://est.example.com',
        auth_mode: 'client_certificate',
        client_certificate_pem: selfSignedTlsIdentity().certPem,
      },
    ],
    [
      'a client key of another certificate',
      'issuer_settings_invalid',
      'vpn',
      {
        kind: 'est',
        url: 'https://est.example.com',
        auth_mode: 'client_certificate',
        client_certificate_pem: selfSignedTlsIdentity().certPem,
        client_key_pem: selfSignedTlsIdentity().keyPem,
      },
    ],
    [
      'a SCEP field on EST',
      'issuer_settings_invalid',
      'vpn',
      {
        kind: 'est',
        url: 'https://est.example.com',
        auth_mode: 'basic',
        username: 'u',
        password: 'p',
        ca_fingerprint: 'ab',
      },
    ],
    [
      'a bad trust anchor',
      'issuer_settings_invalid',
      'vpn',
      {
        kind: 'est',
        url: 'https://est.example.com',
        auth_mode: 'basic',
        username: 'u',
        password: 'p',
        trust_anchor_pem: 'not pem',
      },
    ],
    [
      'a bad SCEP fingerprint',
      'issuer_settings_invalid',
      'vpn',
      { kind: 'scep', url: 'https://scep.example.com/scep', ca_fingerprint: 'xyz' },
    ],
    [
      'a bad auth mode',
      'issuer_settings_invalid',
      'vpn',
      { kind: 'est', url: 'https://est.example.com', auth_mode: 'token' },
    ],
  ])('refuses %s with 400 %s, nothing stored', async (_what, code, purpose, body) => {
    const res = await putProfile(t, admin.accessToken, purpose, body).expect(400);
    expect(res.body.code).toBe(code);
    expect(String(res.body.message)).not.toMatch(/PRIVATE KEY|\bp\b.*password/);
    const rows = await sql(t, `SELECT 1 FROM issuer_profiles WHERE purpose = 'vpn'`);
    expect(rows).toHaveLength(0);
  });

  it('says which field is wrong and why', async () => {
    const res = await putProfile(t, admin.accessToken, 'vpn', {
      kind: 'est',
      url: 'https://est.example.com',
      auth_mode: 'client_certificate',
      client_certificate_pem: selfSignedTlsIdentity().certPem,
      client_key_pem: selfSignedTlsIdentity().keyPem,
    }).expect(400);
    expect(res.body.message).toBe(
      'a setting of the issuer profile is invalid (client_key_pem: does not match client_certificate_pem)',
    );
    const url = await putProfile(t, admin.accessToken, 'vpn', {
      kind: 'est',
      url: 'https://169.254.169.254',
      auth_mode: 'basic',
      username: 'u',
      password: 'p',
    }).expect(400);
    expect(url.body.message).toContain('address_not_allowed');
  });

  it('test-connection names the failing step: wrong port (connect), wrong trust anchor (tls), wrong password (auth)', async () => {
    const closed = await EstStandIn.start();
    const closedUrl = closed.url;
    await closed.close();
    await putProfile(t, admin.accessToken, 'ad_logon', {
      ...estBasicProfile(est),
      url: closedUrl,
    }).expect(200);
    expect(await testConnection(t, admin.accessToken, 'ad_logon')).toMatchObject({
      ok: false,
      failed_step: 'connect',
    });

    await putProfile(t, admin.accessToken, 'ad_logon', {
      ...estBasicProfile(est),
      trust_anchor_pem: selfSignedTlsIdentity().certPem,
    }).expect(200);
    const tls = await testConnection(t, admin.accessToken, 'ad_logon');
    expect(tls).toMatchObject({ ok: false, failed_step: 'tls' });
    expect(tls.steps.slice(-1)[0].detail).toContain('tls_failed');

    await putProfile(t, admin.accessToken, 'ad_logon', estBasicProfile(est, 'wrong')).expect(200);
    const auth = await testConnection(t, admin.accessToken, 'ad_logon');
    expect(auth).toMatchObject({ ok: false, failed_step: 'auth' });
    expect(auth.steps.find((s) => s.step === 'parse')?.ok).toBe(true);

    await putProfile(t, admin.accessToken, 'ad_logon', estBasicProfile(est)).expect(200);
    expect(await testConnection(t, admin.accessToken, 'ad_logon')).toMatchObject({ ok: true });
    await putProfile(t, admin.accessToken, 'ad_logon', { kind: 'built_in' }).expect(200);
  });

  it('a second process (replica or worker) follows a PUT within CERTSVC_ISSUER_RELOAD_SECONDS; CERTSVC_ISSUER=est without a profile refuses to issue; without CERTSVC_SCEP_ENC_KEY secrets are unreadable and cannot be saved', async () => {
    const other = await startTestApp({
      database: t.db,
      env: {
        ...ISSUER_TEST_ENV,
        CERTSVC_SCEP_ENC_KEY: undefined,
        CERTSVC_ISSUER: 'est',
        CERTSVC_ISSUER_RELOAD_SECONDS: '1',
      },
    });
    try {
      const before = await other.http.get('/api/v1/issuer').expect(200);
      const vpn = (before.body as { by_purpose: Record<string, unknown>[] }).by_purpose.find(
        (p) => p.purpose === 'vpn',
      );
      expect(vpn).toMatchObject({ kind: 'est', source: 'default', configured: false });
      expect(String(vpn?.problem)).toContain('CERTSVC_ISSUER=est');

      const otherAdmin = await loginAdmin(other);
      const device = await enrollDevice(other);
      await putProfile(t, admin.accessToken, 'wifi', estBasicProfile(est)).expect(200);
      // the other process has no key: the new profile's secrets cannot be opened there
      const deadline = Date.now() + 5000;
      let wifi: Record<string, unknown> | undefined;
      while (Date.now() < deadline) {
        const res = await other.http.get('/api/v1/issuer').expect(200);
        wifi = (res.body as { by_purpose: Record<string, unknown>[] }).by_purpose.find(
          (p) => p.purpose === 'wifi',
        );
        if (wifi?.source === 'profile') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(wifi).toMatchObject({ kind: 'est', source: 'profile', configured: false });
      const [row] = await approveRows(other, otherAdmin.accessToken, [device.requestId]);
      expect(row).toMatchObject({ status: 'error', error: 'issuer_not_configured' });

      const refused = await putProfile(other, otherAdmin.accessToken, 'vpn', estBasicProfile(est));
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('issuer_secret_key_missing');
      // the API that served the PUT reloaded at once; a direct refresh finds nothing new
      expect(await t.app.get(ProfileIssuers).refresh()).toBe(false);
    } finally {
      await other.close();
      await putProfile(t, admin.accessToken, 'wifi', { kind: 'built_in' }).expect(200);
    }
  });

  it('keeps the schema it was migrated with (issuer_profiles owned here)', async () => {
    const ds = t.app.get(DataSource);
    const columns = (await ds.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'issuer_profiles' ORDER BY ordinal_position`,
    )) as { column_name: string }[];
    expect(columns.map((c) => c.column_name)).toEqual([
      'purpose',
      'kind',
      'settings',
      'sealed_secrets',
      'updated_at',
      'updated_by',
    ]);
  });
});
