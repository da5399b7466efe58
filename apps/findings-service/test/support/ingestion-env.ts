import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { uniqueQueuePrefix } from '@platform/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { WorkerModule } from '../../src/worker/worker.module';
import { loginAdmin, type Login } from './sessions';
import { startTestApp, type TestApp } from './test-app';

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

/** A worker's environment: the test app's database and Redis, quiet, plus `env`. */
export function workerEnv(t: TestApp, env: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: t.config.databaseUrl,
    REDIS_URL: t.config.redisUrl,
    METRICS_PORT: '0',
    LOG_LEVEL: 'error',
    LOG_FILE_SINK_ENABLED: 'false',
    ...env,
  };
}

/** The worker process's module graph, in-process, against the test app's database. */
export async function startWorker(
  t: TestApp,
  env: Record<string, string>,
): Promise<INestApplicationContext> {
  const config = loadFindingsConfig(workerEnv(t, env), 'worker');
  const app = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(config, new FindingsMetrics()),
    { logger: false, abortOnError: false },
  );
  await app.init();
  return app;
}

/** The API (and the worker, in-process) of one test file, the root admin signed in. */
export interface IngestionStack {
  t: TestApp;
  admin: Login;
  env: IngestionEnv;
  /** Set when started with `worker: true`. */
  worker?: INestApplicationContext;
  close(): Promise<void>;
}

/** An ingestion set-up: own queue prefix and storage directory for the API and its worker. */
export async function startIngestion(
  options: { env?: Record<string, string>; worker?: boolean } = {},
): Promise<IngestionStack> {
  const env = ingestionEnv(options.env);
  const t = await startTestApp(env.vars);
  const worker = options.worker ? await startWorker(t, env.vars) : undefined;
  const admin = await loginAdmin(t);
  return {
    t,
    admin,
    env,
    worker,
    close: async () => {
      await worker?.close();
      await t.close();
      env.cleanup();
    },
  };
}
