import { waitFor, WaitAborted } from '@platform/testing';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { TEST_CA_KEY_ENC_KEY, TEST_JWT_SECRET, testDatabase } from '../support/test-app';

const ROOT = join(__dirname, '../../../..');

type Line = Record<string, unknown>;

function jsonLines(output: string): Line[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);
}

describe('Worker - src/worker.ts', () => {
  it('waits for migrations, logs its start line with the version, runs the periodic tasks and exits on SIGTERM', async () => {
    const db = await testDatabase();
    let output = '';
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', 'apps/certificate-service/src/worker.ts'],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          SWC_NODE_PROJECT: 'tsconfig.base.json',
          CERTSVC_DATABASE_URL: db.url,
          CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
          CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
          CERTSVC_LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // 'close', not 'exit': the last lines may still be in the pipe when the process exits.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal })),
    );
    try {
      await waitFor(
        () => {
          if (child.exitCode !== null) throw new WaitAborted(`worker exited:\n${output}`);
          expect(output).toContain('certificate-service worker ready');
        },
        { timeoutMs: 60_000, what: 'the worker ready line' },
      );
      const lines = jsonLines(output);
      const start = lines.find((l) => l.msg === 'starting certificate-service worker');
      expect(start).toMatchObject({ level: 'info', built_at: expect.any(String) });
      expect(String(start?.version)).toMatch(/^\d+\.\d+\.\d{14}\+[0-9a-z]+$/);
      expect(lines.map((l) => l.msg)).toContain(
        'periodic tasks, run by the leading worker: CRL refresh every 900s',
      );
      child.kill('SIGTERM');
      // Nest runs the shutdown hooks, then re-raises the signal: exit by SIGTERM, not a crash.
      const { code, signal } = await exited;
      expect(code === 0 || signal === 'SIGTERM').toBe(true);
      expect(output).toContain('periodic tasks stopped (SIGTERM), leadership released');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await db.drop();
    }
  }, 90_000);
});
