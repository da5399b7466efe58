import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
  pendingRequestOf,
  runAgent,
  shiftedClock,
  Sshd,
  SshKeyMaker,
  startAgentServer,
  TargetServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

const HOUR = 3_600_000;

/** The serial `ssh-keygen -L` shows for a certificate file. */
const sshSerial = (certFile: string): string =>
  /Serial: (\d+)/.exec(execFileSync('ssh-keygen', ['-L', '-f', certFile]).toString())?.[1] ?? '';

/** `ssh-keygen -Q -f KRL CERT`: exit 0 "ok", exit 1 "REVOKED". */
const queryKrl = (krl: string, certFile: string) => {
  const out = spawnSync('ssh-keygen', ['-Q', '-f', krl, certFile], { encoding: 'utf8' });
  return { code: out.status, output: `${out.stdout}${out.stderr}` };
};

describe('device agent: run renews the SSH certificate and writes the KRL for sshd', () => {
  let server: AgentServer;
  let keys: SshKeyMaker;
  let target: TargetServer;
  let sshd: Sshd | undefined;
  beforeAll(async () => {
    server = await startAgentServer();
    keys = new SshKeyMaker();
    target = new TargetServer(server.url);
  }, 60_000);
  afterAll(async () => {
    await sshd?.stop();
    target?.cleanup();
    keys?.cleanup();
    await server?.close();
  });

  const admin = (method: 'put' | 'post', path: string, body: object) =>
    server.t.http[method](path).set('authorization', `Bearer ${server.adminToken}`).send(body);

  it('renews from 2/3 of the 24 h (injected clock), sshd takes the renewed certificate; a revoked one is in the written KRL, an unchanged KRL is not rewritten', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const args = ['--state-dir', state.path];
      const enrolling = runAgent(['enroll', '--server', server.url, '--serial', serial, ...args]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);
      await admin('put', `/api/v1/devices/${serial}/purposes`, { purposes: ['wifi', 'ssh'] });
      await admin('put', `/api/v1/devices/${serial}/owner`, { owner: 'root@example.com' });
      const key = keys.make('ed25519', 'root@laptop');
      const certFile = `${key.privateKey}-cert.pub`;
      const requesting = runAgent(['ssh', '--public-key', `${key.privateKey}.pub`, ...args]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await requesting).code).toBe(0);
      const first = sshSerial(certFile);
      expect(first).toMatch(/^\d+$/);

      // Now: nothing to renew; the KRL is written 0644 where sshd reads it.
      const krlArgs = [...args, '--sshd-krl', target.krl];
      const now = await runAgent(['run', '--once', ...krlArgs]);
      expect([now.code, now.stderr]).toEqual([0, '']);
      expect(now.records.map((r) => r.msg)).not.toContain('SSH certificate renewal requested');
      expect(now.records.map((r) => r.msg)).toContain('SSH KRL written for sshd');
      expect(mode(target.krl)).toBe(0o644);
      expect(queryKrl(target.krl, certFile)).toMatchObject({ code: 0 });

      // 15 h in (before 2/3 of 24 h 5 min): still nothing; 17 h in: a new request, same key.
      const at15 = await runAgent(['run', '--once', ...args], { clock: shiftedClock(15 * HOUR) });
      expect(at15.records.map((r) => r.msg)).not.toContain('SSH certificate renewal requested');
      const clock = shiftedClock(17 * HOUR);
      const due = await runAgent(['run', '--once', ...args], { clock });
      expect([due.code, due.stderr]).toEqual([0, '']);
      expect(due.records.map((r) => r.msg)).toContain('SSH certificate renewal requested');
      expect(sshSerial(certFile)).toBe(first); // the current one stays until the new is issued

      const pending = await runAgent(['run', '--once', ...args], { clock });
      expect(pending.records.map((r) => r.msg)).toContain(
        'SSH certificate renewal awaiting approval',
      );
      await approve(server, await pendingRequestOf(server, serial));
      const renewed = await runAgent(['run', '--once', ...args], { clock });
      expect([renewed.code, renewed.stderr]).toEqual([0, '']);
      expect(renewed.records.map((r) => r.msg)).toContain('SSH certificate renewed');
      const second = sshSerial(certFile);
      expect(Number(second)).toBeGreaterThan(Number(first));
      expect(mode(certFile)).toBe(0o600);
      const listing = execFileSync('ssh-keygen', ['-L', '-f', certFile]).toString();
      expect(listing).toContain(key.fingerprint);

      // A loopback sshd trusting the CA line and reading the agent's KRL lets the renewed one in.
      writeFileSync(target.caKeys, readFileSync(join(state.path, 'ssh', 'trusted-user-ca.pub')), {
        mode: 0o644,
      });
      sshd = new Sshd(target, { trustedUserCaKeys: target.caKeys, revokedKeys: target.krl });
      await sshd.start();
      const login = await sshd.login(key.privateKey, certFile);
      expect([login.code, login.stdout.trim()]).toEqual([0, 'ok']);

      // Revoked: the next pass writes the new KRL; ssh-keygen and sshd refuse the certificate.
      await admin('post', `/api/v1/certificates/ssh-${second}/revoke`, {
        reason: 'keyCompromise',
      }).expect(200);
      const afterRevoke = await runAgent(['run', '--once', ...krlArgs]);
      expect([afterRevoke.code, afterRevoke.stderr]).toEqual([0, '']);
      expect(afterRevoke.records.map((r) => r.msg)).toContain('SSH KRL written for sshd');
      const query = queryKrl(target.krl, certFile);
      expect(query.code).toBe(1);
      expect(query.output).toContain('REVOKED');
      expect(mode(target.krl)).toBe(0o644);
      const refused = await sshd.login(key.privateKey, certFile);
      expect(refused.code).not.toBe(0);

      // Unchanged (304 on If-None-Match): the file is not rewritten (same inode, same mtime).
      const before = statSync(target.krl);
      const again = await runAgent(['run', '--once', ...krlArgs]);
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect(again.records.map((r) => r.msg)).not.toContain('SSH KRL written for sshd');
      const after = statSync(target.krl);
      expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    } finally {
      state.remove();
    }
  });
});
