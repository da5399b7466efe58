import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approve,
  FAST_ENV,
  opensslVerify,
  pendingRequestOf,
  startAgentServer,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';

const ROOT = join(__dirname, '../../..');

/**
 * The one-file bundle (`nx run device-agent:build` -> dist/apps/device-agent/main.js), copied
 * alone into an empty directory: it needs nothing but Node (only node: built-ins are required).
 */
describe('device agent: the one-file bundle', () => {
  let server: AgentServer;
  let dir: string;
  beforeAll(async () => {
    execFileSync('npx', ['nx', 'run', 'device-agent:build', '--outputStyle=static'], {
      cwd: ROOT,
      stdio: 'ignore',
      env: { ...process.env, BUILD_TYPECHECK: 'false', NX_DAEMON: 'false', NX_TUI: 'false' },
    });
    dir = mkdtempSync(join(tmpdir(), 'agent-bundle-'));
    copyFileSync(join(ROOT, 'dist/apps/device-agent/main.js'), join(dir, 'certsvc-agent.js'));
    server = await startAgentServer();
  }, 300_000);
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server?.close();
  });

  function agent(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [join(dir, 'certsvc-agent.js'), ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH, ...FAST_ENV },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  }

  it('requires only node: built-ins and enrolls a device on its own', async () => {
    const source = readFileSync(join(dir, 'certsvc-agent.js'), 'utf8');
    const required = [...source.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((name) => !name.startsWith('node:'))).toEqual([]);

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
    expect(await enrolling).toEqual({ code: 0, stderr: '' });
    expect(opensslVerify(state)).toContain('certificate.pem: OK');
    expect(await agent(['run', '--once', '--state-dir', state])).toEqual({ code: 0, stderr: '' });
    expect(await agent(['enroll', '--serial', serial])).toEqual({
      code: 2,
      stderr: 'certsvc-agent: --server is required\nTry `certsvc-agent --help`.\n',
    });
  });
});
