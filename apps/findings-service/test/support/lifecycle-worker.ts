import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadFindingsConfig } from '../../src/app/config/findings-config';
import { FindingsMetrics } from '../../src/app/metrics/findings-metrics';
import type { LifecycleSchedule } from '../../src/worker/lifecycle.tasks';
import { WorkerModule } from '../../src/worker/worker.module';
import { workerEnv } from './ingestion-env';
import type { TestApp } from './test-app';

/** Periods long enough that no periodic task runs by itself during a test. */
export const NEVER: LifecycleSchedule = {
  slaCheckEveryMs: 3_600_000,
  stateExpiryEveryMs: 3_600_000,
};

/**
 * The worker's module graph in-process on the test app's database and queue prefix, with the
 * lifecycle's periodic tasks every `schedule` (tests call the services directly with NEVER).
 */
export async function startLifecycleWorker(
  t: TestApp,
  schedule: Partial<LifecycleSchedule>,
  env: Record<string, string> = {},
): Promise<INestApplicationContext> {
  const config = loadFindingsConfig(
    workerEnv(t, { QUEUE_PREFIX: t.config.reports.queuePrefix, ...env }),
    'worker',
  );
  const context = await NestFactory.createApplicationContext(
    WorkerModule.forRoot(config, new FindingsMetrics(), { lifecycle: schedule }),
    { logger: false, abortOnError: false },
  );
  await context.init();
  return context;
}
