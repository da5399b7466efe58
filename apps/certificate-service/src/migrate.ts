import 'reflect-metadata';
import { ConfigError } from '@platform/config';
import { runMigrationsUnderLock } from '@platform/database';
import { DataSource } from 'typeorm';
import { loadCertsvcConfig } from './app/config/certsvc-config';
import { createCertsvcLogger } from './app/logging/certsvc-logger';
import { CERTSVC_MIGRATION_LOCK, certificateDataSourceOptions } from './database/data-source';

/**
 * `node migrate.js`: applies the pending migrations under the advisory lock the API takes at
 * start (`certificate-service:migrations`), then exits 0. The Helm chart runs it as the
 * pre-install/pre-upgrade Job; API replicas starting meanwhile wait on the same lock.
 */
async function main(): Promise<void> {
  const config = loadCertsvcConfig();
  const logger = createCertsvcLogger(config);
  const dataSource = new DataSource(
    certificateDataSourceOptions(config.databaseUrl, 'certificate-service-migrate'),
  );
  await dataSource.initialize();
  try {
    await runMigrationsUnderLock(dataSource, {
      lockKey: CERTSVC_MIGRATION_LOCK,
      waitSeconds: config.migrationLockWaitSeconds,
      logger: { log: (message) => logger.info(message), warn: (message) => logger.warn(message) },
    });
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  const text =
    error instanceof ConfigError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`certificate-service migration failed: ${text}\n`);
  process.exit(1);
});
