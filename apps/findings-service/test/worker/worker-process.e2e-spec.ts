import { freePort, testRedisUrl, uniqueQueuePrefix, waitFor, WaitAborted } from '@platform/testing';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { testDatabase } from '../support/test-app';

const ROOT = join(__dirname, '../../../..');

describe('Worker - src/worker.ts', () => {
  it('waits for migrations, serves its own metrics, logs "worker" with its version and exits on SIGTERM', async () => {
    const db = await testDatabase();
    const metricsPort = await freePort();
    let output = '';
    const child = spawn(
      process.execPath,
      ['-r', '@swc-node/register', 'apps/findings-service/src/worker.ts'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          SWC_NODE_PROJECT: 'tsconfig.base.json',
          DATABASE_URL: db.url,
          REDIS_URL: testRedisUrl(),
          QUEUE_PREFIX: uniqueQueuePrefix(),
          METRICS_PORT: String(metricsPort),
          HOST: '127.0.0.1',
          APP_ENV: 'production',
          JWT_SECRET: 'w'.repeat(40),
          LOG_FILE_SINK_ENABLED: 'false',
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
      const metrics = await waitFor(
        async () => {
          if (child.exitCode !== null) throw new WaitAborted(`worker exited:\n${output}`);
          const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
          if (!res.ok) throw new Error(`metrics answered ${res.status}`);
          return res.text();
        },
        { timeoutMs: 60_000, what: 'the worker metrics endpoint' },
      );
      expect(metrics).toContain('findsvc_build_info');
      expect(metrics).toContain('process_cpu_user_seconds_total');
      await waitFor(() =>
        expect(output).toMatch(/component=worker version=\d+\.\d+\.\d{14}\+[0-9a-z]+/),
      );
      child.kill('SIGTERM');
      // Nest runs the shutdown hooks, then re-raises the signal: exit by SIGTERM, not a crash.
      const { code, signal } = await exited;
      expect(code === 0 || signal === 'SIGTERM').toBe(true);
      expect(output).toContain('findings worker stopping (SIGTERM)');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await db.drop();
    }
  }, 90_000);
});
