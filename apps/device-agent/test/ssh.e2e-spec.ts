import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
  pendingRequestOf,
  runAgent,
  Sshd,
  SshKeyMaker,
  startAgentServer,
  TargetServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

describe('device agent: ssh — an OpenSSH user certificate a loopback sshd accepts', () => {
  let server: AgentServer;
  let keys: SshKeyMaker;
  let target: TargetServer;
  let sshd: Sshd | undefined;
  beforeAll(async () => {
    server = await startAgentServer();
    keys = new SshKeyMaker();
    target = new TargetServer(server.url);
    // `root` is an alias of alice: her devices' certificates carry the principal root.
    await server.t.http
      .post('/api/v1/admin/principal-aliases')
      .set('authorization', `Bearer ${server.adminToken}`)
      .send({ name: 'root', members: ['alice@example.com'] })
      .expect(201);
    const krl = await target.refreshKrl();
    if (krl.code !== 0) throw new Error(`KRL: ${krl.stderr}`);
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
    target?.cleanup();
    keys?.cleanup();
    await server?.close();
  });

  const admin = (path: string, body: object) =>
    server.t.http
      .put(path)
      .set('authorization', `Bearer ${server.adminToken}`)
      .send(body)
      .expect(200);

  it('sends only the public key, installs <key>-cert.pub and the CA line; sshd with that TrustedUserCAKeys lets it in', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const args = ['--state-dir', state.path];
      const enrolling = runAgent(['enroll', '--server', server.url, '--serial', serial, ...args]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);
      await admin(`/api/v1/devices/${serial}/purposes`, { purposes: ['wifi', 'ssh'] });
      await admin(`/api/v1/devices/${serial}/owner`, { owner: 'alice@example.com' });

      const key = keys.make('ed25519', 'alice@laptop');
      // A private key is refused before anything is sent.
      const wrong = await runAgent(['ssh', '--public-key', key.privateKey, ...args]);
      expect([wrong.code, wrong.stderr]).toEqual([
        2,
        `certsvc-agent: --public-key ${key.privateKey} is a private key: give the .pub file\nTry \`certsvc-agent --help\`.\n`,
      ]);

      const requesting = runAgent(['ssh', '--public-key', `${key.privateKey}.pub`, ...args]);
      await approve(server, await pendingRequestOf(server, serial));
      const run = await requesting;
      expect([run.code, run.stderr]).toEqual([0, '']);
      const certFile = `${key.privateKey}-cert.pub`;
      expect(mode(certFile)).toBe(0o600);
      const listing = execFileSync('ssh-keygen', ['-L', '-f', certFile]).toString();
      expect(listing).toMatch(/Type: ssh-ed25519-cert-v01@openssh.com user certificate/);
      expect(listing).toMatch(/Principals:[\s\S]*\broot\b/);
      expect(listing).toContain(key.fingerprint);

      const caLine = join(state.path, 'ssh', 'trusted-user-ca.pub');
      expect(mode(caLine)).toBe(0o600);
      const served = await server.t.http
        .get('/api/v1/ssh/ca-public-key')
        .set('accept', 'text/plain');
      expect(readFileSync(caLine, 'utf8').trim()).toBe(served.text.trim());

      // The target server trusts the CA line the agent wrote.
      writeFileSync(target.caKeys, readFileSync(caLine), { mode: 0o644 });
      sshd = new Sshd(target, { trustedUserCaKeys: target.caKeys, revokedKeys: target.krl });
      await sshd.start();
      const login = await sshd.login(key.privateKey, certFile);
      expect([login.code, login.stdout.trim()]).toEqual([0, 'ok']);
    } finally {
      state.remove();
    }
  });
});
