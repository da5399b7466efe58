import {
  freePort,
  startServiceProcess,
  testRedisUrl,
  uniqueQueuePrefix,
  waitFor,
  WaitAborted,
} from '@platform/testing';
import { testDatabase } from '../support/test-app';

describe('Worker - src/worker.ts', () => {
  it('waits for migrations, serves its own metrics, logs "worker" with its version and exits on SIGTERM', async () => {
    const db = await testDatabase();
    const metricsPort = await freePort();
    const worker = startServiceProcess({
      entry: 'apps/findings-service/src/worker.ts',
      env: {
        ...process.env,
        DATABASE_URL: db.url,
        REDIS_URL: testRedisUrl(),
        QUEUE_PREFIX: uniqueQueuePrefix(),
        METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
        APP_ENV: 'production',
        JWT_SECRET: 'w'.repeat(40),
        LOG_FILE_SINK_ENABLED: 'false',
      },
    });
    try {
      const metrics = await waitFor(
        async () => {
          if (!worker.running()) throw new WaitAborted(`worker exited:\n${worker.output()}`);
          const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
          if (!res.ok) throw new Error(`metrics answered ${res.status}`);
          return res.text();
        },
        { timeoutMs: 60_000, what: 'the worker metrics endpoint' },
      );
      expect(metrics).toContain('findsvc_build_info');
      expect(metrics).toContain('process_cpu_user_seconds_total');
      await waitFor(() =>
        expect(worker.output()).toMatch(/component=worker version=\d+\.\d+\.\d{14}\+[0-9a-z]+/),
      );
      // Nest runs the shutdown hooks, then re-raises the signal: exit by SIGTERM, not a crash.
      expect(await worker.stop()).toBe(true);
      expect(worker.output()).toContain('findings worker stopping (SIGTERM)');
    } finally {
      await worker.kill();
      await db.drop();
    }
  }, 90_000);
});
