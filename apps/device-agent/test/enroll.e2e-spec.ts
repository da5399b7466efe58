import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
  opensslVerify,
  pendingRequestOf,
  publicKeyOfCertificate,
  publicKeyOfKeyFile,
  runAgent,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  sql,
  type AgentServer,
} from './support/agent-harness';
import { waitFor } from '@platform/testing';
import { CliApprover } from './support/cli-approval';

describe('device agent: enroll against the real certificate service', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(() => server.close());

  it('enrolls, waits for the approval, installs a certificate openssl verifies and checks in', async () => {
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
        '--platform',
        'linux',
      ]);
      const requestId = await pendingRequestOf(server, serial);
      // The administrator approves with the CLI (`platform requests approve`).
      const approved = JSON.parse(await new CliApprover(server).approve(requestId));
      expect(JSON.stringify(approved)).toContain('"issued"');
      const run = await enrolling;
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);

      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        publicKeyOfKeyFile(join(state.path, 'key.pem')),
      );
      expect(readFileSync(join(state.path, 'request-id'), 'utf8')).toBe(requestId);
      const status = JSON.parse(readFileSync(join(state.path, 'agent-state.json'), 'utf8'));
      expect(status).toMatchObject({ state: 'enrolled', serial, request_id: requestId });
      expect(Date.parse(status.renew_after)).toBeGreaterThan(Date.parse(status.not_before));
      expect(Date.parse(status.renew_after)).toBeLessThan(Date.parse(status.not_after));

      // The check-in reached the service, with the agent's version.
      const [row] = await sql<{ installed_at: Date | null; installed_agent_version: string }>(
        server.t,
        'SELECT installed_at, installed_agent_version FROM certificate_requests WHERE id = $1',
        [requestId],
      );
      expect(row.installed_at).not.toBeNull();
      expect(row.installed_agent_version).toBe('0.1.0');
      // The body was signed with the CSR key (source-auth) and the continuity key is pinned.
      const [signed] = await sql<{ source_auth: string; continuity_key: string }>(
        server.t,
        `SELECT r.source_auth, d.continuity_key FROM certificate_requests r
          JOIN devices d ON d.id = r.device_id WHERE r.id = $1`,
        [requestId],
      );
      expect(signed.source_auth).toBe('signature_valid');
      expect(signed.continuity_key.trim()).toBe(
        publicKeyOfKeyFile(join(state.path, 'continuity-key.pem')).trim(),
      );

      // 0700 directory, 0600 files; the secrets are the ones the service accepts.
      expect(mode(state.path)).toBe(0o700);
      const files = readdirSync(state.path).sort();
      expect(files).toEqual([
        'agent-secret',
        'agent-state.json',
        'ca-bundle.pem',
        'certificate.pem',
        'continuity-key.pem',
        'enrollment-token',
        'key.pem',
        'request-id',
      ]);
      for (const file of files) expect([file, mode(join(state.path, file))]).toEqual([file, 0o600]);
      const secret = readFileSync(join(state.path, 'agent-secret'), 'utf8');
      await server.t.http
        .get(`/api/v1/requests/${requestId}/status`)
        .set('x-agent-secret', secret)
        .expect(200);
      // Nothing secret in the state file or the logs.
      const token = readFileSync(join(state.path, 'enrollment-token'), 'utf8');
      for (const text of [JSON.stringify(status), run.stdout]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(token);
        expect(text).not.toContain('PRIVATE KEY');
      }
      // A second `enroll` sees the installed certificate and sends nothing.
      const again = await runAgent([
        'enroll',
        '--server',
        server.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ]);
      expect(again.code).toBe(0);
      expect(again.records.map((r) => r.msg)).toContain(
        'already enrolled; `run` keeps the certificate fresh',
      );
    } finally {
      state.remove();
    }
  });

  it('exits 5 while the request is still pending after --wait, and a second enroll resumes the same request', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const args = [
        'enroll',
        '--server',
        server.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ];
      const first = await runAgent([...args, '--wait', '0.3']);
      expect(first.code).toBe(5);
      expect(first.stderr).toMatch(/still pending; run `enroll` again/);
      const requestId = readFileSync(join(state.path, 'request-id'), 'utf8');
      const key = readFileSync(join(state.path, 'key.pem'), 'utf8');
      await approve(server, requestId);
      const second = await runAgent(args);
      expect(second.code).toBe(0);
      expect(readFileSync(join(state.path, 'request-id'), 'utf8')).toBe(requestId);
      expect(readFileSync(join(state.path, 'key.pem'), 'utf8')).toBe(key);
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
    } finally {
      state.remove();
    }
  });

  it('recovers a lost enrollment token with its continuity key (a crash lost the first answer) and enrolls', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const args = [
        'enroll',
        '--server',
        server.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ];
      expect((await runAgent([...args, '--wait', '0.1'])).code).toBe(5);
      const first = readFileSync(join(state.path, 'request-id'), 'utf8');
      // As if the agent died before writing the service's answer: no token, no request.
      for (const file of ['enrollment-token', 'request-id', 'agent-secret']) {
        rmSync(join(state.path, file));
      }
      const enrolling = runAgent(args);
      // The new request supersedes the first one (both pending would be the same device's).
      await waitFor(
        async () => {
          const [row] = await sql<{ status: string }>(
            server.t,
            'SELECT status FROM certificate_requests WHERE id = $1',
            [first],
          );
          if (row.status !== 'superseded') throw new Error(`first request ${row.status}`);
        },
        { timeoutMs: 20_000, intervalMs: 25, what: 'the second request' },
      );
      const second = await pendingRequestOf(server, serial);
      expect(second).not.toBe(first);
      await approve(server, second);
      const run = await enrolling;
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.records.map((r) => [r.msg, r.key ?? null])).toEqual(
        expect.arrayContaining([
          ['the enrollment token was refused; recovering it', null],
          ['enrollment token recovered', 'continuity'],
        ]),
      );
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
      // The recovered token is the one the service accepts now (a renewal would send it).
      const token = readFileSync(join(state.path, 'enrollment-token'), 'utf8');
      await server.t.http
        .post('/api/v1/enroll/purposes')
        .send({ serial, enrollment_token: token })
        .expect(200);
    } finally {
      state.remove();
    }
  });

  it('a rejected request ends in state rejected (exit 3); the next enroll sends a new request with the same key and token', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const args = [
        'enroll',
        '--server',
        server.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ];
      const enrolling = runAgent(args);
      const requestId = await pendingRequestOf(server, serial);
      await server.t.http
        .post('/api/v1/requests/reject')
        .set('authorization', `Bearer ${server.adminToken}`)
        .send({ request_ids: [requestId], reason: 'not ours' })
        .expect((res) => expect(res.status).toBeLessThan(300));
      const rejected = await enrolling;
      expect(rejected.code).toBe(3);
      expect(rejected.stderr).toMatch(/ended rejected without a certificate/);
      expect(JSON.parse(readFileSync(join(state.path, 'agent-state.json'), 'utf8')).state).toBe(
        'rejected',
      );

      const retry = runAgent(args);
      const second = await pendingRequestOf(server, serial);
      expect(second).not.toBe(requestId);
      await approve(server, second);
      expect((await retry).code).toBe(0);
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        publicKeyOfKeyFile(join(state.path, 'key.pem')),
      );
    } finally {
      state.remove();
    }
  });
});
