import { MigrationExecutor, type DataSource, type QueryRunner } from 'typeorm';
import { advisoryLockKey, releaseAdvisoryLock, tryAcquireAdvisoryLock } from './advisory-lock';
import { MigrationLockTimeoutError, PendingMigrationsError } from './migration-lock.errors';

/** Satisfied by Nest's `Logger` and by console-like loggers. */
export interface MigrationLogger {
  log(message: string): void;
  warn(message: string): void;
}

export interface MigrationLockOptions {
  /** Lock name, e.g. `findings-migrations`; the same for API replicas and workers. */
  lockKey: string;
  /** From MIGRATION_LOCK_WAIT_SECONDS. */
  waitSeconds: number;
  logger: MigrationLogger;
}

async function withMigrationLock<T>(
  dataSource: DataSource,
  options: MigrationLockOptions,
  work: (queryRunner: QueryRunner) => Promise<T>,
): Promise<T> {
  const key = advisoryLockKey(options.lockKey);
  const queryRunner = dataSource.createQueryRunner();
  try {
    await queryRunner.connect();
    const locked = await tryAcquireAdvisoryLock(queryRunner, key, {
      waitSeconds: options.waitSeconds,
      onContended: () =>
        options.logger.log(
          `migration lock "${options.lockKey}" is held by another process; waiting up to ${options.waitSeconds}s`,
        ),
    });
    if (!locked) throw new MigrationLockTimeoutError(options.lockKey, options.waitSeconds);
    try {
      return await work(queryRunner);
    } finally {
      await releaseAdvisoryLock(queryRunner, key);
    }
  } finally {
    await queryRunner.release();
  }
}

/**
 * Applies pending migrations while holding an advisory lock, so concurrent replicas do not
 * race: one applies them, the others wait and find nothing left to do. Migrations run on the
 * lock's own connection (works with a pool of one). Forward-only: never reverts anything.
 * Returns the names of the migrations this call applied.
 */
export async function runMigrationsUnderLock(
  dataSource: DataSource,
  options: MigrationLockOptions,
): Promise<string[]> {
  return withMigrationLock(dataSource, options, async (queryRunner) => {
    const executor = new MigrationExecutor(dataSource, queryRunner);
    executor.transaction = dataSource.options.migrationsTransactionMode ?? 'each';
    const applied = (await executor.executePendingMigrations()).map((m) => m.name);
    options.logger.log(
      applied.length > 0
        ? `applied ${applied.length} migration(s): ${applied.join(', ')}`
        : 'database schema is up to date',
    );
    return applied;
  });
}

/**
 * For workers: waits while another process holds the migration lock (an API replica
 * migrating), then checks that no migration is pending. Throws `PendingMigrationsError`
 * otherwise: workers never migrate.
 */
export async function waitForMigrations(
  dataSource: DataSource,
  options: MigrationLockOptions,
): Promise<void> {
  await withMigrationLock(dataSource, options, async (queryRunner) => {
    const pending = await new MigrationExecutor(dataSource, queryRunner).getPendingMigrations();
    if (pending.length > 0) throw new PendingMigrationsError(pending.map((m) => m.name));
  });
}
