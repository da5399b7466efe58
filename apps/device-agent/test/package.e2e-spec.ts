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

    const pass = await agent(['run', '--once', '--state-dir', state]);
    expect(pass).toMatchObject({ code: 0, stderr: '' });
    expect(pass.stdout).toContain('"msg":"checked in"');
    const status = await agent(['status', '--state-dir', state]);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'enrolled', serial });
  });
});
