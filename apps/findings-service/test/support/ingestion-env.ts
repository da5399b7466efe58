import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { uniqueQueuePrefix } from '@platform/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { WorkerModule } from '../../src/worker/worker.module';
import type { TestApp } from './test-app';

export interface IngestionEnv {
  /** Environment for the API and the worker: own queue prefix and storage directory. */
  vars: Record<string, string>;
  storageDir: string;
  cleanup: () => void;
}

/** Per-file queue prefix and storage directory, shared by the API and the worker. */
export function ingestionEnv(extra: Record<string, string> = {}): IngestionEnv {
  const storageDir = mkdtempSync(join(tmpdir(), 'reports-e2e-'));
  return {
    vars: {
      QUEUE_PREFIX: uniqueQueuePrefix(),
      REPORT_STORAGE_DIR: storageDir,
      INGEST_LOCK_MS: '2000',
      ...extra,
    },
    storageDir,
    cleanup: () => rmSync(storageDir, { recursive: true, force: true }),
  };
}

/** The worker process's module graph, in-process, against the test app's database. */
export async function startWorker(
  t: TestApp,
  env: Record<string, string>,
): Promise<INestApplicationContext> {
  const config = loadFindingsConfig(
    {
      DATABASE_URL: t.config.databaseUrl,
      REDIS_URL: t.config.redisUrl,
      METRICS_PORT: '0',
      LOG_LEVEL: 'error',
      LOG_FILE_SINK_ENABLED: 'false',
      ...env,
    },
    'worker',
  );
  const app = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(config, new FindingsMetrics()),
    { logger: false, abortOnError: false },
  );
  await app.init();
  return app;
}
