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
