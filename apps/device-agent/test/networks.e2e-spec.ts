import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
  pendingRequestOf,
  runAgent,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

describe('device agent: network profiles written for the supplicant (not applied)', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(() => server.close());

  const admin = (method: 'post' | 'delete', path: string) =>
    server.t.http[method](path).set('authorization', `Bearer ${server.adminToken}`);

  it('writes NetworkManager keyfiles and wpa_supplicant blocks naming the certificate, key and CAs; removes a deleted network', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const enrolling = runAgent([
        'enroll',
        '--server',
        server.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);
      const wifi = (
        await admin('post', '/api/v1/admin/networks')
          .send({
            kind: 'wifi',
            name: 'Corp Wi-Fi',
            ssid: 'corp "guest";net',
            hidden: true,
            radius_server_names: ['radius1.example.com', 'radius2.example.com'],
          })
          .expect(201)
      ).body as { id: string };
      const wired = (
        await admin('post', '/api/v1/admin/networks')
          .send({ kind: 'wired', name: 'Office ports' })
          .expect(201)
      ).body as { id: string };

      const run = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const networks = join(state.path, 'networks');
      expect(mode(networks)).toBe(0o700);
      const keyfile = readFileSync(join(networks, `${wifi.id}.nmconnection`), 'utf8');
      expect(keyfile).toContain(`[connection]\nid=Corp Wi-Fi\nuuid=${wifi.id}\ntype=wifi\n`);
      // An SSID with ';' and '"' is written as bytes for NetworkManager, as hex for wpa_supplicant.
      const bytes = [...Buffer.from('corp "guest";net')].join(';');
      expect(keyfile).toContain(`ssid=${bytes};\nhidden=true`);
      expect(keyfile).toContain('key-mgmt=wpa-eap');
      expect(keyfile).toContain(`eap=tls;\nidentity=${serial}\n`);
      expect(keyfile).toContain(`ca-cert=${join(networks, `${wifi.id}-ca.pem`)}\n`);
      expect(keyfile).toContain(`client-cert=${join(state.path, 'certificate.pem')}\n`);
      expect(keyfile).toContain(`private-key=${join(state.path, 'key.pem')}\n`);
      expect(keyfile).toContain('domain-match=radius1.example.com;radius2.example.com\n');
      const ca = readFileSync(join(networks, `${wifi.id}-ca.pem`), 'utf8');
      expect(ca).toBe(readFileSync(join(state.path, 'ca-bundle.pem'), 'utf8'));

      const wpa = readFileSync(join(networks, `${wifi.id}.wpa.conf`), 'utf8');
      expect(wpa).toContain(
        `\tssid=${Buffer.from('corp "guest";net').toString('hex')}\n\tscan_ssid=1\n`,
      );
      expect(wpa).toContain('\tkey_mgmt=WPA-EAP\n\teap=TLS\n');
      expect(wpa).toContain(`\tprivate_key="${join(state.path, 'key.pem')}"\n`);
      expect(wpa).toContain('\tdomain_match="radius1.example.com;radius2.example.com"\n');

      const wiredKeyfile = readFileSync(join(networks, `${wired.id}.nmconnection`), 'utf8');
      expect(wiredKeyfile).toContain('type=ethernet\n\n[ethernet]\n');
      expect(wiredKeyfile).not.toContain('domain-match');
      expect(readFileSync(join(networks, `${wired.id}.wpa.conf`), 'utf8')).toContain(
        'ap_scan=0\nnetwork={\n\tkey_mgmt=IEEE8021X\n',
      );
      for (const file of [`${wifi.id}.nmconnection`, `${wifi.id}.wpa.conf`, `${wifi.id}-ca.pem`]) {
        expect([file, mode(join(networks, file))]).toEqual([file, 0o600]);
      }

      // Unchanged profiles are not rewritten; a deleted network's files go.
      const again = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(again.records.map((r) => r.msg)).not.toContain('network profile written');
      await admin('delete', `/api/v1/admin/networks/${wired.id}`).expect(204);
      const removed = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(
        removed.records.filter((r) => r.msg === 'network profile removed').map((r) => r.id),
      ).toEqual([wired.id]);
      expect(existsSync(join(networks, `${wired.id}.nmconnection`))).toBe(false);
      expect(existsSync(join(networks, `${wired.id}.wpa.conf`))).toBe(false);
      expect(existsSync(join(networks, `${wifi.id}.nmconnection`))).toBe(true);
    } finally {
      state.remove();
    }
  });
});
