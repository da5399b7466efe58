import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@platform/testing';
import { loadCertsvcConfig } from '../../src/app/config/certsvc-config';
import { createCertsvcLogger } from '../../src/app/logging/certsvc-logger';
import { CertsvcMetrics } from '../../src/app/metrics/certsvc-metrics';
import { WorkerModule } from '../../src/worker/worker.module';
import { enrollDevice, sql } from '../fixtures/enroll';
import { LogCapture } from '../support/log-capture';
import {
  startTestApp,
  TEST_CA_KEY_ENC_KEY,
  TEST_JWT_SECRET,
  type TestApp,
} from '../support/test-app';

describe('Worker - purge of expired Kubernetes credential rows', () => {
  let t: TestApp;
  let worker: INestApplicationContext | undefined;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
  });

  it('deletes rows expired for more than a day, keeps recent and live ones', async () => {
    const device = await enrollDevice(t);
    const [{ id }] = await sql<{ id: string }>(t, `SELECT id FROM devices WHERE serial = $1`, [
      device.serial,
    ]);
    const row = (serial: string, notAfter: string) =>
      sql(
        t,
        `INSERT INTO k8s_credentials (serial, cluster_id, device_id, user_identity, caller_serial, not_after)
         VALUES ($1, gen_random_uuid(), $2, 'a@certsvc.test', 'ab', now() + $3::interval)`,
        [serial, id, notAfter],
      );
    await row('01', '-2 days');
    await row('02', '-1 hour');
    await row('03', '9 minutes');
    const config = loadCertsvcConfig({
      CERTSVC_DATABASE_URL: t.db.url,
      CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
      CERTSVC_CA_KEY_ENC_KEY: TEST_CA_KEY_ENC_KEY,
    });
    worker = await NestFactory.createApplicationContext(
      WorkerModule.forRoot(
        {
          config,
          logger: createCertsvcLogger(config, new LogCapture()),
          metrics: new CertsvcMetrics({ processMetrics: false }),
        },
        { crlRefreshEveryMs: 60_000, k8sCredentialsPurgeEveryMs: 50 },
      ),
      { logger: false },
    );
    await waitFor(async () => {
      const left = await sql<{ serial: string }>(
        t,
        `SELECT serial FROM k8s_credentials ORDER BY serial`,
      );
      expect(left.map((r) => r.serial)).toEqual(['02', '03']);
    });
  });
});
