import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  approve,
  mode,
  opensslVerify,
  pendingRequestOf,
  publicKeyOfCertificate,
  publicKeyOfKeyFile,
  runAgent,
  shiftedClock,
  sql,
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

const readState = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'agent-state.json'), 'utf8')) as Record<string, string>;

describe('device agent: run (check-in, bundle refresh, renewal, refusals)', () => {
  let server: AgentServer;
  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(() => server.close());

  /** A device enrolled and approved; its state directory. */
  async function enrolled(): Promise<{ path: string; serial: string; remove(): void }> {
    const state = tempStateDir();
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
    const run = await enrolling;
    if (run.code !== 0) throw new Error(`enroll failed: ${run.stderr}`);
    return { ...state, serial };
  }

  /** A clock 0.7 of the certificate's lifetime after its start: inside the renewal window. */
  function inRenewalWindow(dir: string) {
    const { not_before, not_after, renew_after } = readState(dir);
    const start = Date.parse(not_before);
    const at = start + (Date.parse(not_after) - start) * 0.7;
    expect(at).toBeGreaterThan(Date.parse(renew_after));
    return shiftedClock(at - Date.now());
  }

  it('checks in and keeps the bundle while its version is unchanged; a changed version downloads it (ETag)', async () => {
    const state = await enrolled();
    try {
      const certificate = readFileSync(join(state.path, 'certificate.pem'), 'utf8');
      const first = await runAgent(['run', '--once', '--state-dir', state.path, '--verbose']);
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/DEBUG bundle unchanged/);
      expect(first.stdout).toMatch(/INFO {2}checked in request_id=/);
      expect(readState(state.path).last_checkin_at).toBeDefined();

      // The stored version is stale but the ETag current: 304, nothing rewritten.
      const status = readState(state.path);
      writeFileSync(
        join(state.path, 'agent-state.json'),
        JSON.stringify({ ...status, bundle_version: 'old' }),
      );
      const notModified = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(notModified.code).toBe(0);
      expect(notModified.records.map((r) => r.msg)).not.toContain(
        'certificate bundle changed, installed',
      );

      // Stale version and ETag: the certificate is downloaded again and the facts restored.
      writeFileSync(
        join(state.path, 'agent-state.json'),
        JSON.stringify({ ...status, bundle_version: 'old', etag: '"old"' }),
      );
      const changed = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(changed.records.map((r) => r.msg)).toContain('certificate bundle changed, installed');
      expect(readState(state.path).bundle_version).toBe(status.bundle_version);
      expect(readFileSync(join(state.path, 'certificate.pem'), 'utf8')).toBe(certificate);
    } finally {
      state.remove();
    }
  });

  it('does not renew before 2/3 of the lifetime; after it, renews with a new key and swaps once approved', async () => {
    const state = await enrolled();
    try {
      const before = readState(state.path);
      const oldKey = readFileSync(join(state.path, 'key.pem'), 'utf8');
      const early = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(early.records.map((r) => r.msg)).not.toContain('renewal requested');

      const clock = inRenewalWindow(state.path);
      const due = await runAgent(['run', '--once', '--state-dir', state.path], { clock });
      expect(due.code).toBe(0);
      expect(readState(state.path).state).toBe('renewal_pending');
      expect(mode(join(state.path, 'renewal-key.pem'))).toBe(0o600);
      const renewalId = readFileSync(join(state.path, 'renewal-request-id'), 'utf8');
      expect(await pendingRequestOf(server, state.serial)).toBe(renewalId);

      // Not approved yet: the current certificate stays; the pass reports the wait.
      const waiting = await runAgent(['run', '--once', '--state-dir', state.path], { clock });
      expect(waiting.records.map((r) => r.msg)).toContain('renewal awaiting approval');

      await approve(server, renewalId);
      const swapped = await runAgent(['run', '--once', '--state-dir', state.path], { clock });
      expect(swapped.code).toBe(0);
      const after = readState(state.path);
      expect(after).toMatchObject({ state: 'enrolled', request_id: renewalId });
      expect(after.certificate_serial).not.toBe(before.certificate_serial);
      expect(readFileSync(join(state.path, 'key.pem'), 'utf8')).not.toBe(oldKey);
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        publicKeyOfKeyFile(join(state.path, 'key.pem')),
      );
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
      for (const leftover of ['renewal-key.pem', 'renewal-request-id', 'renewal-agent-secret']) {
        expect(existsSync(join(state.path, leftover))).toBe(false);
      }
      const [row] = await sql<{ installed_at: Date | null }>(
        server.t,
        'SELECT installed_at FROM certificate_requests WHERE id = $1',
        [renewalId],
      );
      expect(row.installed_at).not.toBeNull();
    } finally {
      state.remove();
    }
  });

  it('finishes a swap a crash interrupted (renewed certificate on disk, key and request id moved) before any network call', async () => {
    const state = await enrolled();
    try {
      const clock = inRenewalWindow(state.path);
      await runAgent(['run', '--once', '--state-dir', state.path], { clock });
      const renewalId = readFileSync(join(state.path, 'renewal-request-id'), 'utf8');
      const renewalSecret = readFileSync(join(state.path, 'renewal-agent-secret'), 'utf8');
      await approve(server, renewalId);
      // What a crash in the middle of the swap leaves: the journal written, the key moved.
      const res = await server.t.http
        .get(`/api/v1/requests/${renewalId}/certificate`)
        .set('x-agent-secret', renewalSecret)
        .expect(200);
      writeFileSync(join(state.path, 'renewal-ca-bundle.pem'), res.body.ca_bundle_pem, {
        mode: 0o600,
      });
      writeFileSync(join(state.path, 'renewal-certificate.pem'), res.body.certificate_pem, {
        mode: 0o600,
      });
      renameSync(join(state.path, 'renewal-key.pem'), join(state.path, 'key.pem'));
      renameSync(join(state.path, 'renewal-request-id'), join(state.path, 'request-id'));

      // The agent restarts while the service is down: the swap is finished from the files alone.
      const status = readState(state.path);
      writeFileSync(
        join(state.path, 'agent-state.json'),
        JSON.stringify({ ...status, server: 'http://127.0.0.1:1' }),
      );
      const offline = await runAgent([
        'run',
        '--once',
        '--state-dir',
        state.path,
        '--retry-for',
        '0',
      ]);
      expect(offline.code).toBe(4);
      expect(readState(state.path)).toMatchObject({
        state: 'enrolled',
        request_id: renewalId,
        certificate_serial: res.body.serial,
      });
      expect(readFileSync(join(state.path, 'agent-secret'), 'utf8')).toBe(renewalSecret);
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        publicKeyOfKeyFile(join(state.path, 'key.pem')),
      );
      expect(existsSync(join(state.path, 'renewal-certificate.pem'))).toBe(false);

      // Back online (today's clock: the renewed certificate is far from its own window).
      writeFileSync(
        join(state.path, 'agent-state.json'),
        JSON.stringify({ ...readState(state.path), server: server.url }),
      );
      const run = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(run.code).toBe(0);
      expect(readState(state.path)).toMatchObject({
        state: 'enrolled',
        request_id: renewalId,
        bundle_version: res.body.bundle_version,
      });
    } finally {
      state.remove();
    }
  });

  it('a clock 10 minutes off: the pass warns with the skew and carries on (state enrolled)', async () => {
    const state = await enrolled();
    try {
      const skewMsg = 'the clock differs from the certificate service; fix the time sync (NTP)';
      const inTime = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(inTime.records.map((r) => r.msg)).not.toContain(skewMsg);
      for (const offset of [10, -10]) {
        const run = await runAgent(['run', '--once', '--state-dir', state.path], {
          clock: shiftedClock(offset * 60_000),
        });
        expect([run.code, run.stderr]).toEqual([0, '']);
        const warning = run.records.find((r) => r.msg === skewMsg);
        expect(warning?.level).toBe('warn');
        expect(Math.abs((warning?.skew_seconds as number) - offset * 60)).toBeLessThanOrEqual(5);
        expect(readState(state.path).state).toBe('enrolled');
      }
    } finally {
      state.remove();
    }
  });

  it('an agent secret the service no longer accepts ends in state unauthorized (exit 3); enroll recovers with the stored token', async () => {
    const state = await enrolled();
    try {
      writeFileSync(join(state.path, 'agent-secret'), 'not-the-secret');
      const run = await runAgent(['run', '--once', '--state-dir', state.path]);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /agent secret is no longer accepted \(agent_unauthorized\); state unauthorized/,
      );
      expect(readState(state.path)).toMatchObject({
        state: 'unauthorized',
        reason: 'agent_unauthorized',
      });
      expect((await runAgent(['run', '--once', '--state-dir', state.path])).code).toBe(3);

      const enrolling = runAgent([
        'enroll',
        '--server',
        server.url,
        '--serial',
        state.serial,
        '--state-dir',
        state.path,
      ]);
      await approve(server, await pendingRequestOf(server, state.serial));
      expect((await enrolling).code).toBe(0);
      expect((await runAgent(['run', '--once', '--state-dir', state.path])).code).toBe(0);
    } finally {
      state.remove();
    }
  });
});
