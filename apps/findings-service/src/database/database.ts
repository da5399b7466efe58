import { DatabaseModule } from '@platform/database';
import { FindingsConfig } from '../app/config/findings-config';
import { findingsDataSourceOptions, MIGRATION_LOCK_KEY } from './data-source';

/** The findings database: the API applies pending migrations, the worker waits for them. */
export function findingsDatabase(config: FindingsConfig) {
  return DatabaseModule.forRoot({
    dataSource: findingsDataSourceOptions(config.databaseUrl, `findings-${config.role}`),
    migrations: {
      role: config.role === 'api' ? 'apply' : 'wait',
      lockKey: MIGRATION_LOCK_KEY,
      waitSeconds: config.migrationLockWaitSeconds,
    },
  });
}
