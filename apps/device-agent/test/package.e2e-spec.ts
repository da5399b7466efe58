import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approve,
  FAST_ENV,
  mode,
  opensslVerify,
  pendingRequestOf,
  startAgentServer,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';
import { emptyPathDir, packagedAgent, runFile, type Ran } from './support/packaged-agent';

const ROOT = join(__dirname, '../../..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const UNIT = join(ROOT, 'apps/device-agent/packaging/deb/platform-device-agent.service');

const toolPath = (tool: string): string | undefined =>
  spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim() ||
  undefined;

/** The system calls the unit's `SystemCallFilter=` lines allow, groups expanded by systemd. */
function unitSyscalls(): Set<string> {
  const allowed = new Set<string>();
  const seen = new Set<string>();
  const add = (name: string): void => {
    if (!name.startsWith('@')) {
      allowed.add(name);
      return;
    }
    if (seen.has(name)) return;
    seen.add(name);
    const listing = execFileSync('systemd-analyze', ['syscall-filter', name], { encoding: 'utf8' });
    for (const line of listing.split('\n').slice(1)) {
      const entry = line.trim();
      if (entry && !entry.startsWith('#')) add(entry);
    }
  };
  for (const line of readFileSync(UNIT, 'utf8').split('\n')) {
    if (line.startsWith('SystemCallFilter=')) line.slice(17).trim().split(/\s+/).forEach(add);
  }
  return allowed;
}

/**
 * The single executable (`nx run device-agent:package`: Node SEA, postject), copied alone into
 * an empty directory and run with an environment of its own: PATH is an empty directory (no
 * node reachable), no NODE_* variable, no node_modules anywhere above it.
 */
describe('device agent: the single executable (Node SEA)', () => {
  let server: AgentServer;
  let dir: string;
  let noPath: { path: string; remove(): void };
  let exe: string;

  beforeAll(async () => {
    const built = await packagedAgent();
    dir = mkdtempSync(join(tmpdir(), 'agent-sea-'));
    exe = join(dir, 'certsvc-agent');
    copyFileSync(built.executable, exe);
    noPath = emptyPathDir();
    server = await startAgentServer();
  }, 240_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    noPath?.remove();
    await server?.close();
  });

  const agent = (args: string[]): Promise<Ran> =>
    runFile(exe, args, { cwd: dir, env: { PATH: noPath.path, ...FAST_ENV } });

  it('is one executable file that runs without Node.js or node_modules', async () => {
    expect(statSync(exe).mode & 0o111).toBe(0o111);
    // an ELF executable with Node built in, not a script for an installed node
    expect(readFileSync(exe).subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
    expect(
      await runFile('/bin/sh', ['-c', 'command -v node || echo none'], {
        cwd: dir,
        env: { PATH: noPath.path },
      }),
    ).toMatchObject({ code: 0, stdout: 'none\n' });

    expect(await agent(['--version'])).toEqual({
      code: 0,
      stdout: `certsvc-agent ${VERSION} (Node.js ${process.version}, ${process.platform}-${process.arch}, single executable)\n`,
      stderr: '',
    });
    const help = await agent(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: certsvc-agent <command> \[options\]\n/);
    expect(help.stdout).toContain('Exit codes: 0 ok');
    // bad input: one line and exit 2, no stack trace, no Node warning
    expect(await agent(['--bogus'])).toMatchObject({ code: 2 });
    const missing = await agent(['enroll', '--serial', 'X']);
    expect(missing).toMatchObject({
      code: 2,
      stderr: 'certsvc-agent: --server is required\nTry `certsvc-agent --help`.\n',
    });
  });

  it('enrolls a device against the certificate service and keeps it fresh', async () => {
    const serial = uniqueSerial();
    const state = join(dir, 'state');
    const enrolling = agent([
      'enroll',
      '--server',
      server.url,
      '--serial',
      serial,
      '--state-dir',
      state,
    ]);
    await approve(server, await pendingRequestOf(server, serial));
    const enrolled = await enrolling;
    expect(enrolled).toMatchObject({ code: 0, stderr: '' });
    expect(enrolled.stdout).toContain('"msg":"certificate installed"');
    expect(opensslVerify(state)).toContain('certificate.pem: OK');
    expect(mode(state)).toBe(0o700);
    expect(mode(join(state, 'key.pem'))).toBe(0o600);

    // The pass under strace where it and systemd-analyze are installed: every system call it
    // makes must pass the unit's SystemCallFilter= (a call outside it would fail with EPERM).
    const strace = toolPath('strace');
    const filter = toolPath('systemd-analyze') ? unitSyscalls() : undefined;
    const trace = join(dir, 'run.strace');
    const runArgs = ['run', '--once', '--state-dir', state];
    const pass =
      strace && filter
        ? await runFile(strace, ['-f', '-qq', '-o', trace, exe, ...runArgs], {
            cwd: dir,
            env: { PATH: noPath.path, ...FAST_ENV },
          })
        : await agent(runArgs);
    expect(pass).toMatchObject({ code: 0, stderr: '' });
    expect(pass.stdout).toContain('"msg":"checked in"');
    if (strace && filter) {
      const used = new Set(
        [...readFileSync(trace, 'utf8').matchAll(/^\d+ +([a-z0-9_]+)\(/gm)].map((m) => m[1]!),
      );
      expect(used.has('connect')).toBe(true); // the trace saw the pass's HTTP calls
      expect([...used].filter((call) => !filter.has(call))).toEqual([]);
    }
    const status = await agent(['status', '--state-dir', state]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'enrolled', serial });
  });
});
