import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  opensslVerify,
  pendingRequestOf,
  runAgent,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

const readState = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'agent-state.json'), 'utf8')) as Record<string, string>;

describe('device agent: a revoked certificate (device revoke by the admin)', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(() => server.close());

  async function enrolled(): Promise<{ path: string; serial: string; remove(): void }> {
    const state = tempStateDir();
    const serial = uniqueSerial();
    const args = ['enroll', '--server', server.url, '--serial', serial, '--state-dir', state.path];
    const enrolling = runAgent(args);
    await approve(server, await pendingRequestOf(server, serial));
    const run = await enrolling;
    if (run.code !== 0) throw new Error(`enroll failed: ${run.stderr}`);
    return { ...state, serial };
  }

  const admin = (path: string) =>
    server.t.http.post(path).set('authorization', `Bearer ${server.adminToken}`);

  it('sees its certificate on the CRL: state revoked, exit 3; after the unblock it enrolls again with a new key', async () => {
    const [revoked, bystander] = await Promise.all([enrolled(), enrolled()]);
    try {
      await admin(`/api/v1/devices/${revoked.serial}/revoke`).expect(200);

      // Another device's pass reads the same CRL and carries on.
      const other = await runAgent(['run', '--once', '--state-dir', bystander.path]);
      expect([other.code, other.stderr]).toEqual([0, '']);
      expect(readState(bystander.path).state).toBe('enrolled');

      const run = await runAgent(['run', '--once', '--state-dir', revoked.path]);
      expect(run.code).toBe(3);
      const serial = readState(revoked.path).certificate_serial;
      expect(run.stderr).toMatch(
        new RegExp(
          `^certsvc-agent: certificate ${serial} is revoked \\(CRL of .+\\); state revoked: `,
        ),
      );
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(readState(revoked.path)).toMatchObject({
        state: 'revoked',
        reason: 'certificate_revoked',
      });
      expect((await runAgent(['run', '--once', '--state-dir', revoked.path])).code).toBe(3);

      const oldKey = readFileSync(join(revoked.path, 'key.pem'), 'utf8');
      await admin(`/api/v1/devices/${revoked.serial}/unblock`).expect(200);
      const args = [
        'enroll',
        '--server',
        server.url,
        '--serial',
        revoked.serial,
        '--state-dir',
        revoked.path,
      ];
      const enrolling = runAgent(args);
      await approve(server, await pendingRequestOf(server, revoked.serial));
      expect((await enrolling).code).toBe(0);
      expect(readFileSync(join(revoked.path, 'key.pem'), 'utf8')).not.toBe(oldKey);
      expect(opensslVerify(revoked.path)).toContain('certificate.pem: OK');
      expect((await runAgent(['run', '--once', '--state-dir', revoked.path])).code).toBe(0);
    } finally {
      revoked.remove();
      bystander.remove();
    }
  });
});
