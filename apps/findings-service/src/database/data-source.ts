import { buildDataSourceOptions, PostgresDataSourceOptions } from '@platform/database';
import { FINDINGS_ENTITIES } from './entities';
import { FINDINGS_MIGRATIONS } from './migrations';

export const MIGRATION_LOCK_KEY = 'findings-service:migrations';

/** TypeORM options of the findings database (API, worker, tests and the TypeORM CLI). */
export function findingsDataSourceOptions(
  url: string,
  applicationName = 'findings-service',
  poolSize?: number,
): PostgresDataSourceOptions {
  return {
    ...buildDataSourceOptions({
      url,
      entities: FINDINGS_ENTITIES,
      migrations: FINDINGS_MIGRATIONS,
      applicationName,
      poolSize,
    }),
    // gen_random_uuid() is built into PostgreSQL 13+: no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
  };
}
