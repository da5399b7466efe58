import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
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
  startAgentServer,
  tempStateDir,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';
import { runAgentProcess, spawnAgent, until } from './support/agent-process';
import { SwitchableProxy } from './support/switchable-proxy';

const STACK_LINE = /^\s+at .+\(.*:\d+:\d+\)$/m;

describe('device agent: faults end in documented states', () => {
  let server: AgentServer;
  let proxy: SwitchableProxy;
  beforeAll(async () => {
    server = await startAgentServer();
    proxy = await SwitchableProxy.create(server.port);
  });
  afterEach(() => proxy.down());
  afterAll(() => server.close());

  it('a process killed after key generation leaves a key 0600 that the next enroll reuses (and its stale lock is taken over)', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      // The service is down: the agent generates its key, then retries the enrollment.
      const killed = spawnAgent([
        'enroll',
        '--server',
        proxy.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ]);
      const keyFile = join(state.path, 'key.pem');
      await until(() => existsSync(keyFile), 'the key file');
      // One agent per state directory: a second one is refused while the first runs.
      const second = await runAgent([
        ...['enroll', '--server', proxy.url, '--serial', serial, '--state-dir', state.path],
      ]);
      expect([second.code, second.stderr]).toEqual([
        6,
        `certsvc-agent: another certsvc-agent (pid ${killed.child.pid}) is using ${state.path}; stop it or wait\n`,
      ]);
      killed.child.kill('SIGKILL');
      expect((await killed.done).signal).toBe('SIGKILL');
      const key = readFileSync(keyFile, 'utf8');
      expect(mode(keyFile)).toBe(0o600);
      expect(mode(state.path)).toBe(0o700);
      expect(existsSync(join(state.path, 'request-id'))).toBe(false);
      expect(existsSync(join(state.path, '.lock'))).toBe(true); // stale: taken over below

      await proxy.up();
      const enrolling = runAgent([
        'enroll',
        '--server',
        proxy.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ]);
      await approve(server, await pendingRequestOf(server, serial));
      const run = await enrolling;
      expect(run.code).toBe(0);
      expect(run.records.map((r) => r.msg)).toContain('reusing the key of an earlier attempt');
      expect(readFileSync(keyFile, 'utf8')).toBe(key);
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        publicKeyOfKeyFile(keyFile),
      );
    } finally {
      state.remove();
    }
  });

  it('retries a stopped service with growing back-off and enrolls once it is back', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      const enrolling = runAgent([
        'enroll',
        '--server',
        proxy.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 700));
      await proxy.up();
      await approve(server, await pendingRequestOf(server, serial));
      const run = await enrolling;
      expect(run.code).toBe(0);
      const retries = run.records.filter(
        (r) => r.msg === 'certificate service unreachable, retrying',
      );
      expect(retries.length).toBeGreaterThanOrEqual(3);
      expect(retries.map((r) => r.attempt)).toEqual(retries.map((_, i) => i + 1));
      // Back-off grows to its cap (20 ms doubling, capped at 200 ms in tests; between c/2 and c).
      const delays = retries.map((r) => r.retry_in_ms as number);
      expect(delays[0]).toBeLessThanOrEqual(20);
      expect(Math.max(...delays)).toBeGreaterThan(delays[0]);
      expect(Math.max(...delays)).toBeLessThanOrEqual(200);
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
    } finally {
      state.remove();
    }
  });

  it('gives up on a service that stays down after --retry-for: exit 4, one line, no stack trace, key kept', async () => {
    const state = tempStateDir();
    try {
      const run = await runAgentProcess([
        'enroll',
        '--server',
        proxy.url,
        '--serial',
        uniqueSerial(),
        '--state-dir',
        state.path,
        '--retry-for',
        '1',
      ]);
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(
        /^certsvc-agent: enrollment: the certificate service is unreachable \(.*ECONNREFUSED\); gave up after \d+ attempts\n$/,
      );
      expect(run.stdout).not.toMatch(STACK_LINE);
      const state_ = JSON.parse(readFileSync(join(state.path, 'agent-state.json'), 'utf8'));
      expect(state_.state).toBe('key_generated');
      expect(mode(join(state.path, 'key.pem'))).toBe(0o600);
    } finally {
      state.remove();
    }
  });

  it('run --once against a stopped service exits 4 and leaves the enrolled state and files as they were', async () => {
    const state = tempStateDir();
    try {
      const serial = uniqueSerial();
      await proxy.up();
      const enrolling = runAgent([
        'enroll',
        '--server',
        proxy.url,
        '--serial',
        serial,
        '--state-dir',
        state.path,
      ]);
      await approve(server, await pendingRequestOf(server, serial));
      expect((await enrolling).code).toBe(0);
      const before = readFileSync(join(state.path, 'certificate.pem'), 'utf8');
      await proxy.down();
      const run = await runAgent([
        'run',
        '--once',
        '--state-dir',
        state.path,
        '--retry-for',
        '0.5',
      ]);
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/bundle version: the certificate service is unreachable/);
      expect(JSON.parse(readFileSync(join(state.path, 'agent-state.json'), 'utf8')).state).toBe(
        'enrolled',
      );
      expect(readFileSync(join(state.path, 'certificate.pem'), 'utf8')).toBe(before);
      await proxy.up();
      expect((await runAgent(['run', '--once', '--state-dir', state.path])).code).toBe(0);
    } finally {
      state.remove();
    }
  });

  const readState = (dir: string) =>
    JSON.parse(readFileSync(join(dir, 'agent-state.json'), 'utf8')) as Record<string, string>;
  const admin = (path: string) =>
    server.t.http.post(path).set('authorization', `Bearer ${server.adminToken}`);
  const skewWarning = 'the clock differs from the certificate service; fix the time sync (NTP)';

  it('a blocked device (device revoke) ends in state blocked: no renewal, slow check-ins; after the unblock the run loop replaces its certificate by itself', async () => {
    const state = tempStateDir();
    let loop: ReturnType<typeof spawnAgent> | undefined;
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
      const before = readState(state.path);
      await admin(`/api/v1/devices/${serial}/revoke`).expect(200);

      // Even inside the renewal window, a blocked device asks for no renewal.
      const due = shiftedClock(Date.parse(before.renew_after) + 86_400_000 - Date.now());
      const blocked = await runAgent(['run', '--once', '--state-dir', state.path], { clock: due });
      expect(blocked.code).toBe(3);
      expect(blocked.stderr).toBe(
        `certsvc-agent: device ${serial} is blocked by an administrator (state blocked): no renewal until it is unblocked; \`run\` checks in every 4 intervals and requests a new certificate by itself once unblocked (docs/agent.md, "Blocked device")\n`,
      );
      expect(readState(state.path)).toMatchObject({ state: 'blocked', reason: 'device_blocked' });
      expect(existsSync(join(state.path, 'renewal-request-id'))).toBe(false);
      const again = await runAgent(['run', '--once', '--state-dir', state.path], { clock: due });
      expect(again.code).toBe(3);
      expect(again.records.map((r) => r.msg)).toContain('checked in');
      expect(existsSync(join(state.path, 'renewal-key.pem'))).toBe(false);

      // The loop keeps checking in at a slower pace (4 intervals) and recovers by itself.
      loop = spawnAgent(['run', '--interval', '1', '--state-dir', state.path]);
      const child = loop;
      const checkins = () => (child.stdout().match(/"msg":"checked in"/g) ?? []).length;
      await until(() => checkins() >= 1, 'a first check-in of the loop');
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(checkins()).toBe(1); // a normal pace would have checked in twice more
      expect(child.stdout()).toContain('device blocked, next pass at a slower pace');

      await admin(`/api/v1/devices/${serial}/unblock`).expect(200);
      const replacement = await pendingRequestOf(server, serial);
      await until(() => readState(state.path).state !== 'blocked', 'the unblock seen');
      expect(readState(state.path)).toMatchObject({
        state: 'renewal_pending',
        reason: 'replacing_revoked',
        renewal_request_id: replacement,
      });
      await approve(server, replacement);
      await until(() => readState(state.path).state === 'enrolled', 'the replacement installed');
      const after = readState(state.path);
      expect(after.request_id).toBe(replacement);
      expect(after.certificate_serial).not.toBe(before.certificate_serial);
      expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
      expect(publicKeyOfCertificate(join(state.path, 'certificate.pem'))).toBe(
        publicKeyOfKeyFile(join(state.path, 'key.pem')),
      );
    } finally {
      loop?.child.kill('SIGTERM');
      await loop?.done;
      state.remove();
    }
  });

  it.each([
    ['ahead', 600],
    ['behind', -600],
  ])(
    'a clock 10 minutes %s: enrollment and renewal work, the skew is logged, the renewal window moves by the skew',
    async (_, skew) => {
      const state = tempStateDir();
      try {
        const serial = uniqueSerial();
        const skewed = shiftedClock(skew * 1000);
        const args = [
          'enroll',
          '--server',
          server.url,
          '--serial',
          serial,
          '--state-dir',
          state.path,
        ];
        const enrolling = runAgent(args, { clock: skewed });
        await approve(server, await pendingRequestOf(server, serial));
        const enrolled = await enrolling;
        expect(enrolled.code).toBe(0);
        const warning = enrolled.records.find((r) => r.msg === skewWarning);
        expect(Math.abs((warning?.skew_seconds as number) - skew)).toBeLessThanOrEqual(2);
        expect(readState(state.path).state).toBe('enrolled');

        // A pass now: the same warning, the state does not change.
        const at = (real: number) => shiftedClock(real + skew * 1000 - Date.now());
        const pass = (real: number) =>
          runAgent(['run', '--once', '--state-dir', state.path], { clock: at(real) });
        const now = await pass(Date.now());
        expect(now.code).toBe(0);
        const passWarning = now.records.find((r) => r.msg === skewWarning);
        expect(Math.abs((passWarning?.skew_seconds as number) - skew)).toBeLessThanOrEqual(2);
        expect(readState(state.path).state).toBe('enrolled');

        // The agent renews by its own clock: it reaches renew_after at the real time
        // renew_after - skew (10 minutes early when ahead, late when behind).
        const opens = Date.parse(readState(state.path).renew_after) - skew * 1000;
        expect((await pass(opens - 60_000)).code).toBe(0);
        expect(readState(state.path).state).toBe('enrolled');
        expect((await pass(opens + 60_000)).code).toBe(0);
        expect(readState(state.path).state).toBe('renewal_pending');
        await approve(server, await pendingRequestOf(server, serial));
        expect((await pass(opens + 120_000)).code).toBe(0);
        expect(readState(state.path).state).toBe('enrolled');
        expect(opensslVerify(state.path)).toContain('certificate.pem: OK');
      } finally {
        state.remove();
      }
    },
  );

  it.each([
    [['enroll', '--serial', 'S1'], 2, /^certsvc-agent: --server is required\n/],
    [['enroll', '--server', 'not a url', '--serial', 'S1'], 2, /is not a URL/],
    [['enroll', '--server', 'ftp://h', '--serial', 'S1'], 2, /http:\/\/ or https:\/\//],
    [
      ['enroll', '--server', 'http://127.0.0.1:1', '--serial', 'S1', '--wait', 'soon'],
      2,
      /--wait must be a number/,
    ],
    [['enroll', '--bogus'], 2, /Unknown option '--bogus'/],
    [['fly'], 2, /unknown command "fly"/],
    [['run', '--interval', '0'], 2, /--interval must be a number of seconds >= 1/],
    [['run', '--once'], 6, /no certificate in .*: run `enroll` first/],
  ])('refuses %j with exit %i and a clear message', async (args, code, message) => {
    const state = tempStateDir();
    try {
      const run = await runAgentProcess([...args, '--state-dir', state.path]);
      expect([run.code, run.stderr]).toEqual([code, expect.stringMatching(message)]);
      expect(run.stderr).not.toMatch(STACK_LINE);
      expect(run.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
    } finally {
      state.remove();
    }
  });

  it('an unreachable --server URL (nothing listens) ends with exit 4 and the cause', async () => {
    const state = tempStateDir();
    try {
      const run = await runAgentProcess([
        'enroll',
        '--server',
        'http://unreachable.invalid',
        '--serial',
        'S1',
        '--state-dir',
        state.path,
        '--retry-for',
        '0',
      ]);
      expect(run.code).toBe(4);
      expect(run.stderr).toMatch(/unreachable \(.*ENOTFOUND\)/);
      expect(run.stdout).toContain('plain http to a remote service');
      expect(run.stderr).not.toMatch(STACK_LINE);
    } finally {
      state.remove();
    }
  });

  it('refuses a state directory of another user with exit 6 and writes nothing into it', async () => {
    const state = tempStateDir();
    try {
      mkdirSync(state.path, { mode: 0o700 });
      chownSync(state.path, 65534, 65534);
      const run = await runAgent([
        ...['enroll', '--server', proxy.url, '--serial', uniqueSerial(), '--state-dir', state.path],
      ]);
      expect([run.code, run.stderr]).toEqual([
        6,
        `certsvc-agent: state directory ${state.path} belongs to another user (uid 65534)\n`,
      ]);
      expect(readdirSync(state.path)).toEqual([]);
    } finally {
      state.remove();
    }
  });
});
