import { DatabaseModule, type MigrationRole } from '@platform/database';
import type { CertsvcConfig } from '../app/config/certsvc-config';
import { CERTSVC_MIGRATION_LOCK, certificateDataSourceOptions } from './data-source';

/** The certificate database: the API applies pending migrations, the worker waits for them. */
export function certificateDatabase(config: CertsvcConfig, role: MigrationRole) {
  return DatabaseModule.forRoot({
    dataSource: certificateDataSourceOptions(
      config.databaseUrl,
      role === 'apply' ? 'certificate-service-api' : 'certificate-service-worker',
    ),
    migrations: {
      role,
      lockKey: CERTSVC_MIGRATION_LOCK,
      waitSeconds: config.migrationLockWaitSeconds,
    },
    connectAttempts: 2,
  });
}
