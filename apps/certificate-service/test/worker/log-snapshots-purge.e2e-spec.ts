import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@platform/testing';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { WorkerModule } from '../../src/worker/worker.module';
import { enrollDevice, sql, startEnrollApp } from '../fixtures/enroll';
import { LogCapture } from '../support/log-capture';
import { TEST_CA_KEY_ENC_KEY, TEST_JWT_SECRET, type TestApp } from '../support/test-app';

describe('Worker - purge of agent log snapshots older than 7 days', () => {
  let t: TestApp;
  let worker: INestApplicationContext | undefined;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'certsvc-worker-logs-'));
    t = await startEnrollApp({ env: { CERTSVC_LOG_SNAPSHOT_DIR: dir } });
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the leading worker deletes the old row and file, keeps the recent one', async () => {
    const d = await enrollDevice(t);
    const upload = async () =>
      (
        await t.http
          .post(`/api/v1/requests/${d.requestId}/logs`)
          .set('x-agent-secret', d.agentSecret)
          .set('content-type', 'application/gzip')
          .send(gzipSync('{"msg":"hello"}\n'))
          .expect(201)
      ).body.id as string;
    const old = await upload();
    const recent = await upload();
    await sql(
      t,
      `UPDATE device_log_snapshots SET uploaded_at = now() - interval '8 days' WHERE id = $1`,
      [old],
    );
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3_600_000);
    utimesSync(join(dir, `${old}.log.gz`), eightDaysAgo, eightDaysAgo);
    const config = loadCertsvcConfig({
      CERTSVC_DATABASE_URL: t.db.url,
      CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
      CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
      CERTSVC_LOG_SNAPSHOT_DIR: dir,
    });
    worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot(
        {
          config,
          logger: createCertsvcLogger(config, new LogCapture()),
          metrics: new CertsvcMetrics({ processMetrics: false }),
        },
        { crlRefreshEveryMs: 60_000, logSnapshotsPurgeEveryMs: 50 },
      ),
      { logger: false },
    );
    await waitFor(async () => {
      const left = await sql<{ id: string }>(
        t,
        `SELECT id FROM device_log_snapshots WHERE device_id = (SELECT id FROM devices WHERE serial = $1)`,
        [d.serial],
      );
      expect(left.map((r) => r.id)).toEqual([recent]);
      expect(existsSync(join(dir, `${old}.log.gz`))).toBe(false);
    });
    expect(existsSync(join(dir, `${recent}.log.gz`))).toBe(true);
  });
});
