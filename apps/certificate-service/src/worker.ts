import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ConfigError } from '@platform/config';
import { waitForMigrations } from '@platform/database';
import { currentBuildInfo } from '@platform/versioning';
import { loadCertsvcConfig } from './app/config/certsvc-config';
import { CERTSVC_MIGRATION_LOCK } from './database/data-source';
import { createCertsvcLogger } from './app/logging/certsvc-logger';
import { NestLoggerAdapter } from './app/logging/nest-logger.adapter';
import { CertsvcMetrics } from './app/metrics/certsvc-metrics';
import { WorkerModule } from './worker/worker.module';

async function main(): Promise<void> {
  const config = loadCertsvcConfig();
  const logger = createCertsvcLogger(config);
  const build = currentBuildInfo();
  logger.info(
    { version: build.version, commit: build.commit, built_at: build.builtAt },
    'starting certificate-service worker',
  );
  const runtime = {
    config,
    logger,
    metrics: new CertsvcMetrics(),
    applicationName: 'certificate-service-worker',
  };
  const app = await NestFactory.createApplicationContext(WorkerModule.register(runtime), {
    logger: new NestLoggerAdapter(logger),
  });
  await waitForMigrations(app.get(DataSource), {
    lockKey: CERTSVC_MIGRATION_LOCK,
    waitSeconds: config.migrationLockWaitSeconds,
    logger: { log: (m) => logger.info(m), warn: (m) => logger.warn(m) },
  });
  logger.info('certificate-service worker ready (no background tasks yet)');
  await untilStopped();
  logger.info('certificate-service worker stopping');
  await app.close();
}

/** Keeps the process alive (idle pools do not) until SIGTERM or SIGINT. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => undefined, 60_000);
    const stop = (): void => {
      clearInterval(timer);
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

main().catch((error: unknown) => {
  const text =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`certificate-service worker failed to start: ${text}\n`);
  process.exit(1);
});
