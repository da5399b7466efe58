import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  opensslVerify,
  pendingRequestOf,
  runAgent,
  shiftedClock,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

const readState = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'agent-state.json'), 'utf8')) as Record<string, string>;

describe('device agent: a revoked certificate (certificate revoke by the admin) and the CRL cache', () => {
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

  const crlDownloads = () =>
    server.t.logs.accessLines().filter((l) => l.route === '/api/v1/enroll/crl').length;

  it('reads the CRL once and keeps it until next_update; a certificate revoke is seen after next_update: state revoked, exit 3; enroll again gets a new key', async () => {
    const [revoked, bystander] = await Promise.all([enrolled(), enrolled()]);
    try {
      const first = await runAgent(['run', '--once', '--state-dir', revoked.path]);
      expect([first.code, first.stderr]).toEqual([0, '']);
      const cache = JSON.parse(readFileSync(join(revoked.path, 'crl-cache.json'), 'utf8'));
      const nextUpdate = Math.min(
        ...cache.crls.map((c: { next_update: string }) => Date.parse(c.next_update)),
      );
      expect(nextUpdate).toBeGreaterThan(Date.now());
      // The second pass does not download the CRL again (cached until next_update).
      const downloads = crlDownloads();
      expect((await runAgent(['run', '--once', '--state-dir', revoked.path])).code).toBe(0);
      expect(crlDownloads()).toBe(downloads);
      // A damaged cache is downloaded again (and rewritten).
      writeFileSync(join(revoked.path, 'crl-cache.json'), '{not json');
      expect((await runAgent(['run', '--once', '--state-dir', revoked.path])).code).toBe(0);
      expect(crlDownloads()).toBe(downloads + 1);
      expect(JSON.parse(readFileSync(join(revoked.path, 'crl-cache.json'), 'utf8')).crls).toEqual(
        cache.crls,
      );

      const serial = readState(revoked.path).certificate_serial;
      await admin(`/api/v1/certificates/${serial}/revoke`).send({}).expect(200);
      // Before next_update the cached CRL is used: the revocation is not seen yet.
      expect((await runAgent(['run', '--once', '--state-dir', revoked.path])).code).toBe(0);
      expect(readState(revoked.path).state).toBe('enrolled');

      // Another device's pass reads the CRL and carries on.
      const other = await runAgent(['run', '--once', '--state-dir', bystander.path]);
      expect([other.code, other.stderr]).toEqual([0, '']);
      expect(readState(bystander.path).state).toBe('enrolled');

      // After next_update the CRL is read again and the revocation seen.
      const later = { clock: shiftedClock(nextUpdate + 60_000 - Date.now()) };
      const run = await runAgent(['run', '--once', '--state-dir', revoked.path], later);
      expect(crlDownloads()).toBeGreaterThan(downloads + 1);
      expect(run.code).toBe(3);
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
