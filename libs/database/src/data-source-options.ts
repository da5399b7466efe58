import type { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** TypeORM options for PostgreSQL (the member of `DataSourceOptions` with `type: 'postgres'`). */
export type PostgresDataSourceOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

export interface DataSourceSettings {
  /** `postgres://user@host:port/database` */
  url: string;
  entities: PostgresDataSourceOptions['entities'];
  migrations: PostgresDataSourceOptions['migrations'];
  /** Shown in `pg_stat_activity.application_name`, e.g. `findings-api`. */
  applicationName: string;
  poolSize?: number;
}

/**
 * Options every service uses: schema changes only through migrations (never `synchronize`),
 * migrations are run explicitly (see `runMigrationsUnderLock`), each in its own transaction.
 */
export function buildDataSourceOptions(settings: DataSourceSettings): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    applicationName: settings.applicationName,
    entities: settings.entities,
    migrations: settings.migrations,
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    // Never log statements: their bound parameters carry password and key hashes. Errors are
    // logged by the services through @platform/logging (statement kind and SQLSTATE only).
    logging: false,
    poolSize: settings.poolSize ?? 10,
    connectTimeoutMS: 10_000,
  };
}
