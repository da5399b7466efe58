import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError } from '@platform/config';
import { runMigrationsUnderLock } from '@platform/database';
import { DataSource } from 'typeorm';
import { loadFindingsConfig } from './app/config/findings-config';
import { findingsDataSourceOptions, MIGRATION_LOCK_KEY } from './database/data-source';

/**
 * `node migrate.js`: applies the pending migrations under the advisory lock the API takes at
 * start (`findings-service:migrations`), then exits 0. The Helm chart runs it as the
 * pre-install/pre-upgrade Job; API replicas starting meanwhile wait on the same lock.
 */
async function main(): Promise<void> {
  const config = loadFindingsConfig(process.env, 'api');
  const dataSource = new DataSource(
    findingsDataSourceOptions(config.databaseUrl, 'findings-migrate', 1),
  );
  await dataSource.initialize();
  try {
    await runMigrationsUnderLock(dataSource, {
      lockKey: MIGRATION_LOCK_KEY,
      waitSeconds: config.migrationLockWaitSeconds,
      logger: new Logger('Migrate'),
    });
  } finally {
    await dataSource.destroy();
  }
}

main().catch((err: unknown) => {
  const text =
    err instanceof ConfigError
      ? err.message
      : err instanceof Error
        ? (err.stack ?? err.message)
        : String(err);
  process.stderr.write(`findings migration failed: ${text}\n`);
  process.exit(1);
});
