/** The migration lock stayed held by another process for longer than allowed. */
export class MigrationLockTimeoutError extends Error {
  readonly code = 'migration_lock_timeout';

  constructor(lockKey: string, waitSeconds: number) {
    super(
      `waited ${waitSeconds}s for the migration lock "${lockKey}", which another process ` +
        'still holds (a replica migrating, or a stuck session). Raise ' +
        'MIGRATION_LOCK_WAIT_SECONDS if migrations legitimately take longer.',
    );
    this.name = 'MigrationLockTimeoutError';
  }
}

/** A worker started against a database that the API has not migrated yet. */
export class PendingMigrationsError extends Error {
  readonly code = 'pending_migrations';

  constructor(readonly pending: string[]) {
    super(
      `${pending.length} migration(s) not applied (${pending.join(', ')}): ` +
        'start the API first; it applies migrations, workers only wait for them.',
    );
    this.name = 'PendingMigrationsError';
  }
}
