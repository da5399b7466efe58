import 'reflect-metadata';
import { DataSource } from 'typeorm';
import {
  advisoryLockKey,
  buildDataSourceOptions,
  detectSchemaDrift,
  MigrationLockTimeoutError,
  PendingMigrationsError,
  runMigrationsUnderLock,
  waitForMigrations,
  type MigrationLogger,
} from '../src';
import {
  CreateWidget1700000000000,
  holdNextMigration,
  Widget,
  WidgetWithSeverity,
} from './fixtures';
import { createScratchDatabase } from './scratch-database';

const silent: MigrationLogger = { log: () => undefined, warn: () => undefined };
const lock = { lockKey: 'dblib-e2e-migrations', waitSeconds: 10, logger: silent };

/** A logger whose `seen` resolves when the lock is reported held by another process. */
function contentionLogger(): { logger: MigrationLogger; seen: Promise<void> } {
  let found!: () => void;
  const seen = new Promise<void>((resolve) => (found = resolve));
  const note = (message: string) => {
    if (message.includes('held by another process')) found();
  };
  return { logger: { log: note, warn: note }, seen };
}

describe('migrations under an advisory lock (real PostgreSQL)', () => {
  let db: { url: string; drop(): Promise<void> };
  const sources: DataSource[] = [];

  async function dataSource(entities: (typeof Widget | typeof WidgetWithSeverity)[] = [Widget]) {
    const source = new DataSource(
      buildDataSourceOptions({
        url: db.url,
        entities,
        migrations: [CreateWidget1700000000000],
        applicationName: 'dblib-e2e',
        poolSize: 2,
      }),
    );
    sources.push(source);
    return source.initialize();
  }

  beforeEach(async () => {
    db = await createScratchDatabase();
  });

  afterEach(async () => {
    await Promise.all(sources.splice(0).map((s) => (s.isInitialized ? s.destroy() : undefined)));
    await db.drop();
  });

  it('applies a migration once when two replicas race', async () => {
    const [a, b] = await Promise.all([dataSource(), dataSource()]);

    const contention = contentionLogger();
    const migration = holdNextMigration();

    const racing = Promise.all([
      runMigrationsUnderLock(a, { ...lock, logger: contention.logger }),
      runMigrationsUnderLock(b, { ...lock, logger: contention.logger }),
    ]);
    await migration.entered; // one replica holds the lock, inside up()
    await contention.seen; // the other one found it held
    migration.open();

    expect((await racing).flat()).toEqual(['CreateWidget1700000000000']);
    const rows: unknown[] = await a.query('SELECT name FROM migrations');
    expect(rows).toHaveLength(1);
  });

  it('gives up after waitSeconds when another session holds the lock', async () => {
    const source = await dataSource();
    const holder = source.createQueryRunner();
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1::bigint)', [advisoryLockKey(lock.lockKey)]);
    const started = Date.now();

    const attempt = runMigrationsUnderLock(source, { ...lock, waitSeconds: 1 });

    await expect(attempt).rejects.toThrow(MigrationLockTimeoutError);
    await expect(attempt).rejects.toThrow(/MIGRATION_LOCK_WAIT_SECONDS/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await holder.release();
    expect(await source.showMigrations()).toBe(true);
  });

  it('lets a worker start only after the migrations are applied', async () => {
    const source = await dataSource();

    await expect(waitForMigrations(source, lock)).rejects.toThrow(PendingMigrationsError);
    await expect(waitForMigrations(source, lock)).rejects.toThrow(/start the API first/);

    await runMigrationsUnderLock(source, lock);
    await expect(waitForMigrations(source, lock)).resolves.toBeUndefined();
  });

  it('makes a worker wait while an API replica is migrating', async () => {
    const [api, worker] = await Promise.all([dataSource(), dataSource()]);
    const migration = holdNextMigration();
    const migrating = runMigrationsUnderLock(api, lock);
    await migration.entered;

    const contention = contentionLogger();
    const waiting = waitForMigrations(worker, { ...lock, logger: contention.logger });
    await contention.seen;
    migration.open();

    await expect(waiting).resolves.toBeUndefined();
    expect(await migrating).toEqual(['CreateWidget1700000000000']);
  });

  it('reports no drift when entities match the migrations', async () => {
    const source = await dataSource([Widget]);
    await runMigrationsUnderLock(source, lock);

    expect(await detectSchemaDrift(source)).toEqual([]);
  });

  it('reports the SQL for a column that no migration creates', async () => {
    const source = await dataSource([WidgetWithSeverity]);
    await runMigrationsUnderLock(source, lock);

    expect(await detectSchemaDrift(source)).toEqual([
      'ALTER TABLE "widget" ADD "severity_score" integer',
    ]);
  });
});
