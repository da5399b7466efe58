import { startServiceProcess, waitFor, WaitAborted } from '@platform/testing';
import { TEST_CA_KEY_ENC_KEY, TEST_JWT_SECRET, testDatabase } from '../support/test-app';

describe('Worker - src/worker.ts', () => {
  it('waits for migrations, logs its start line with the version, runs the periodic tasks and exits on SIGTERM', async () => {
    const db = await testDatabase();
    const worker = startServiceProcess({
      entry: 'apps/certificate-service/src/worker.ts',
      env: {
        CERTSVC_DATABASE_URL: db.url,
        CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
        CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
        CERTSVC_LOG_LEVEL: 'info',
      },
    });
    try {
      await waitFor(
        () => {
          if (!worker.running()) throw new WaitAborted(`worker exited:\n${worker.output()}`);
          expect(worker.output()).toContain('certificate-service worker ready');
        },
        { timeoutMs: 60_000, what: 'the worker ready line' },
      );
      const lines = worker.jsonLines();
      const start = lines.find((l) => l.msg === 'starting certificate-service worker');
      expect(start).toMatchObject({ level: 'info', built_at: expect.any(String) });
      expect(String(start?.version)).toMatch(/^\d+\.\d+\.\d{14}\+[0-9a-z]+$/);
      expect(lines.map((l) => l.msg)).toContain(
        'periodic tasks, run by the leading worker: CRL refresh every 900s, Kubernetes credential rows purge every 3600s, webhook retention purge every 21600s, SCEP poll every 30s, agent log snapshots purge every 3600s',
      );
      // Nest runs the shutdown hooks, then re-raises the signal: exit by SIGTERM, not a crash.
      expect(await worker.stop()).toBe(true);
      expect(worker.output()).toContain('periodic tasks stopped (SIGTERM), leadership released');
    } finally {
      await worker.kill();
      await db.drop();
    }
  }, 90_000);
});
