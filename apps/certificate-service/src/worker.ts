import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from '@platform/config';
import { NestLogger } from '@platform/logging';
import { currentBuildInfo } from '@platform/versioning';
import { loadCertsvcConfig } from './app/config/certsvc-config';
import { createCertsvcLogger } from './app/logging/certsvc-logger';
import { CertsvcMetrics } from './app/metrics/certsvc-metrics';
import { WorkerModule } from './worker/worker.module';

/** Worker entry point: waits for migrations, then runs the periodic tasks until SIGTERM. */
async function main(): Promise<void> {
  const config = loadCertsvcConfig();
  const logger = createCertsvcLogger(config);
  const build = currentBuildInfo();
  logger.info(
    { version: build.version, commit: build.commit, built_at: build.builtAt },
    'starting certificate-service worker',
  );
  const app = await NestFactory.createApplicationContext(
    WorkerModule.forRoot({ config, logger, metrics: new CertsvcMetrics() }),
    { bufferLogs: true, abortOnError: false },
  );
  app.useLogger(app.get(NestLogger));
  app.enableShutdownHooks();
  logger.info('certificate-service worker ready');
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
