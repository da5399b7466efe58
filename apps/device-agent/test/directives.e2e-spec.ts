import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
  opensslVerify,
  pendingRequestOf,
  runAgent,
  sql,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

describe('device agent: issuance directives carried out by the user half', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(() => server.close());

  const admin = (method: 'post' | 'put' | 'get', path: string) =>
    server.t.http[method](path).set('authorization', `Bearer ${server.adminToken}`);

  it('enrolls for the person, reports done (or failed with the refusal), installs the approved user certificate', async () => {
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
      await admin('put', `/api/v1/devices/${serial}/purposes`)
        .send({ purposes: ['wifi', 'user_mtls'] })
        .expect(200);
      await admin('post', `/api/v1/devices/${serial}/issuance-directives`)
        .send({ purpose: 'user_mtls', user: 'alice@example.com' })
        .expect(201);
      await admin('post', `/api/v1/devices/${serial}/issuance-directives`)
        .send({ purpose: 'ad_logon', user: 'bob@example.com', upn: 'bob@corp.example' })
        .expect(201);

      const logFile = join(state.path, '..', 'agent.log');
      const run = await runAgent([
        'run',
        '--once',
        '--state-dir',
        state.path,
        '--log-file',
        logFile,
      ]);
      expect([run.code, run.stderr]).toEqual([0, '']);
      const directives = (
        await admin('get', `/api/v1/devices/${serial}/issuance-directives`).expect(200)
      ).body.items as { user: string; state: string; message: string }[];
      const byUser = Object.fromEntries(directives.map((d) => [d.user, d]));
      expect(byUser['alice@example.com']).toMatchObject({ state: 'done' });
      expect(byUser['alice@example.com'].message).toMatch(
        /^request [0-9a-f-]{36} sent, awaiting approval$/,
      );
      expect(byUser['bob@example.com']).toMatchObject({ state: 'failed' });
      expect(byUser['bob@example.com'].message).toMatch(/^purpose_not_assigned: /);

      // The user half logs to its own file; the machine half's file has none of it.
      const records = (file: string) =>
        readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { half: string; msg: string });
      const userLog = records(join(state.path, '..', 'agent-user.log'));
      expect(new Set(userLog.map((r) => r.half))).toEqual(new Set(['user']));
      expect(userLog.map((r) => r.msg)).toEqual(
        expect.arrayContaining(['enrolled for a person', 'directive reported']),
      );
      expect(new Set(records(logFile).map((r) => r.half))).toEqual(new Set(['machine']));

      // The admin approves the person's request; the next pass installs it.
      const [request] = await sql<{ id: string }>(
        server.t,
        `SELECT id FROM certificate_requests WHERE user_identity = 'alice@example.com' AND status = 'pending'`,
      );
      await approve(server, request.id);
      expect((await runAgent(['run', '--once', '--state-dir', state.path])).code).toBe(0);
      const users = join(state.path, 'users');
      const [slot] = readdirSync(users).filter((name) => name.startsWith('user_mtls-'));
      expect(opensslVerify(join(users, slot))).toContain('certificate.pem: OK');
      expect(mode(users)).toBe(0o700);
      expect(mode(join(users, slot))).toBe(0o700);
      for (const file of readdirSync(join(users, slot))) {
        expect([file, mode(join(users, slot, file))]).toEqual([file, 0o600]);
      }
      const [installed] = await sql<{ installed_at: Date | null }>(
        server.t,
        'SELECT installed_at FROM certificate_requests WHERE id = $1',
        [request.id],
      );
      expect(installed.installed_at).not.toBeNull();

      // Directives are acted on once: no second request for the same person.
      expect((await runAgent(['run', '--once', '--state-dir', state.path])).code).toBe(0);
      const [count] = await sql<{ n: number }>(
        server.t,
        `SELECT count(*)::int AS n FROM certificate_requests WHERE user_identity = 'alice@example.com'`,
      );
      expect(count.n).toBe(1);
    } finally {
      state.remove();
    }
  });
});
