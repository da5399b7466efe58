import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPem, type CertificateIssuer } from '@platform/pki';
import { IssuerRegistry } from '../../src/modules/ca/issuer-registry';
import { enrollDevice, sql, startEnrollApp, type EnrolledDevice } from '../fixtures/enroll';
import { issueCertificate } from '../fixtures/issue';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

interface AgentNetwork {
  id: string;
  kind: string;
  name: string;
  ssid: string | null;
  hidden: boolean;
  eap_method: string;
  purpose: string;
  radius_server_names: string[];
  ca_chain_pem: string | null;
  updated_at: string;
}

function opensslVerify(certificatePem: string, caChainPem: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'certsvc-net-'));
  try {
    writeFileSync(join(dir, 'ca.pem'), caChainPem);
    writeFileSync(join(dir, 'cert.pem'), certificatePem);
    return execFileSync('openssl', ['verify', '-CAfile', 'ca.pem', 'cert.pem'], {
      cwd: dir,
    }).toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Networks to agents - networks field of POST /api/v1/enroll/purposes', () => {
  let t: TestApp;
  let admin: TestUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await startEnrollApp();
    admin = await loginAdmin(t);
    const make = async (key: string, body: Record<string, unknown>) => {
      const res = await t.http
        .post('/api/v1/admin/networks')
        .set(...bearer(admin.accessToken))
        .send({ name: key, ...body })
        .expect(201);
      ids[key] = (res.body as { id: string }).id;
    };
    await make('plain', {
      kind: 'wifi',
      ssid: 'CorpNet',
      radius_server_names: ['radius.corp.example'],
    });
    await make('agent-off', { kind: 'wifi', ssid: 'Lab', agent_profile_disabled: true });
    await make('mac-off', { kind: 'wifi', ssid: 'Guests', macos_agent_profile_disabled: true });
    await make('wired', { kind: 'wired' });
    await make('disabled', { kind: 'wifi', ssid: 'Old' });
    await t.http
      .post(`/api/v1/admin/networks/${ids.disabled}/disable`)
      .set(...bearer(admin.accessToken))
      .expect(200);
  });
  afterAll(() => t.close());

  const networksOf = async (d: EnrolledDevice): Promise<AgentNetwork[]> => {
    const res = await t.http
      .post('/api/v1/enroll/purposes')
      .send({ serial: d.serial, enrollment_token: d.enrollmentToken })
      .expect(200);
    return (res.body as { networks: AgentNetwork[] }).networks;
  };
  const names = (networks: AgentNetwork[]) => networks.map((n) => n.name).sort();

  it('gives a Windows agent the enabled networks without the agent opt-out', async () => {
    const device = await enrollDevice(t, { extra: { platform: 'windows' } });
    const networks = await networksOf(device);
    expect(names(networks)).toEqual(['mac-off', 'plain', 'wired']);
    expect(networks.find((n) => n.name === 'plain')).toMatchObject({
      id: ids.plain,
      kind: 'wifi',
      ssid: 'CorpNet',
      hidden: false,
      eap_method: 'eap-tls',
      purpose: 'wifi',
      radius_server_names: ['radius.corp.example'],
    });
    expect(networks.find((n) => n.name === 'wired')).toMatchObject({ kind: 'wired', ssid: null });
  });

  it('hands out the CA chain that verifies the certificate the supplicant presents', async () => {
    const device = await enrollDevice(t, { extra: { platform: 'linux' } });
    const serial = await issueCertificate(t, admin.accessToken, device);
    const [row] = await sql<{ der: Buffer }>(t, `SELECT der FROM certificates WHERE serial = $1`, [
      serial,
    ]);
    const [network] = await networksOf(device);
    expect(network.ca_chain_pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(network.ca_chain_pem?.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(opensslVerify(toPem('CERTIFICATE', row.der), network.ca_chain_pem ?? '')).toContain(
      'OK',
    );
  });

  it('sends no CA chain when an external issuer serves wifi (the certificate brings its own)', async () => {
    const registry = t.app.get(IssuerRegistry);
    const external = Object.create(registry.builtIn()) as CertificateIssuer;
    const device = await enrollDevice(t, { extra: { platform: 'linux' } });
    registry.use('wifi', external);
    try {
      const networks = await networksOf(device);
      expect(networks.length).toBeGreaterThan(0);
      for (const n of networks) expect(n.ca_chain_pem).toBeNull();
    } finally {
      registry.use('wifi', undefined);
    }
  });

  it('applies the macOS opt-out (not the agent one) to agents reporting macOS', async () => {
    for (const platform of ['macOS', 'darwin', 'Mac OS X 14.2']) {
      const device = await enrollDevice(t, { extra: { platform } });
      expect(names(await networksOf(device))).toEqual(['agent-off', 'plain', 'wired']);
    }
  });

  it('follows changes at once: opt-out switched, network disabled or deleted', async () => {
    const device = await enrollDevice(t, { extra: { platform: 'windows' } });
    const as = (r: ReturnType<typeof t.http.put>) => r.set(...bearer(admin.accessToken));
    await as(t.http.put(`/api/v1/admin/networks/${ids.plain}/agent-profile-disabled`))
      .send({ disabled: true })
      .expect(200);
    expect(names(await networksOf(device))).toEqual(['mac-off', 'wired']);
    await as(t.http.put(`/api/v1/admin/networks/${ids.plain}/agent-profile-disabled`))
      .send({ disabled: false })
      .expect(200);
    await as(t.http.post(`/api/v1/admin/networks/${ids.wired}/disable`)).expect(200);
    await as(t.http.delete(`/api/v1/admin/networks/${ids['mac-off']}`)).expect(204);
    expect(names(await networksOf(device))).toEqual(['plain']);
    await as(t.http.post(`/api/v1/admin/networks/${ids.disabled}/restore`)).expect(200);
    expect(names(await networksOf(device))).toEqual(['disabled', 'plain']);
  });

  it('gives no network to a device that may not hold a wifi certificate', async () => {
    const device = await enrollDevice(t);
    await t.http
      .put(`/api/v1/devices/${device.serial}/purpose-overrides`)
      .set(...bearer(admin.accessToken))
      .send({ overrides: { wifi: 'deny', vpn: 'allow' } })
      .expect(200);
    expect(await networksOf(device)).toEqual([]);
  });
});
