import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { advisoryLockKey } from '@platform/database';
import {
  createTestDatabase,
  ensureTemplateDatabase,
  identifierPart,
  testRunId,
  waitFor,
  type TestDatabase,
} from '../src';
import { withAdminClient } from '../src/admin-database';
import { Gadget, gadgetDataSourceOptions, holdNextMigration, migrationRuns } from './fixtures';

async function databaseExists(name: string): Promise<boolean> {
  return withAdminClient(async (admin) => {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rowCount === 1;
  });
}

/** Sessions waiting for the advisory lock that guards the building of `service`'s template. */
async function templateLockWaiters(service: string): Promise<number> {
  const template = `tmpl_${identifierPart(service, 20)}_${testRunId()}`;
  const key = BigInt.asUintN(64, BigInt(advisoryLockKey(`platform-test-template:${template}`)));
  return withAdminClient(async (admin) => {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND NOT granted AND classid::bigint = $1 AND objid::bigint = $2`,
      [String(key >> 32n), String(key & 0xffffffffn)],
    );
    return rows[0].n;
  });
}

describe('createTestDatabase (real PostgreSQL)', () => {
  const service = `lib_e2e_${process.pid}`;
  const options = { service, dataSourceOptions: gadgetDataSourceOptions };
  const created: TestDatabase[] = [];
  // Migration runs of this file's template only: in a bundle, a file before this one may have
  // migrated its own template with the same fixture (fuzz-runner.e2e-spec.ts does).
  let runsBefore = 0;
  beforeAll(() => {
    runsBefore = migrationRuns.count;
  });

  afterAll(async () => {
    await Promise.all(created.map((db) => db.drop()));
    const template = await ensureTemplateDatabase(options);
    await withAdminClient((admin) => admin.query(`DROP DATABASE "${template}" WITH (FORCE)`));
  });

  it('migrates the template once, even for concurrent callers', async () => {
    const migration = holdNextMigration();
    const building = Promise.all([
      ensureTemplateDatabase(options),
      ensureTemplateDatabase(options),
    ]);
    await migration.entered;
    await waitFor(async () => expect(await templateLockWaiters(service)).toBe(1), {
      what: 'the second caller waiting for the template lock',
    });
    migration.open();
    const templates = await building;

    expect(new Set(templates).size).toBe(1);
    expect(migrationRuns.count - runsBefore).toBe(1);
  });

  it('gives each caller its own migrated database', async () => {
    const [a, b] = await Promise.all([createTestDatabase(options), createTestDatabase(options)]);
    created.push(a, b);
    expect(a.name).not.toBe(b.name);

    const sourceA = await new DataSource(gadgetDataSourceOptions(a.url)).initialize();
    const sourceB = await new DataSource(gadgetDataSourceOptions(b.url)).initialize();
    await sourceA.getRepository(Gadget).insert({ id: 'g1', serialNumber: 'SN-1' });

    expect(await sourceA.getRepository(Gadget).count()).toBe(1);
    expect(await sourceB.getRepository(Gadget).count()).toBe(0);
    await Promise.all([sourceA.destroy(), sourceB.destroy()]);
    expect(migrationRuns.count - runsBefore).toBe(1);
  });

  it('drops the database, even with connections still open', async () => {
    const db = await createTestDatabase(options);
    const source = await new DataSource(gadgetDataSourceOptions(db.url)).initialize();

    await db.drop();

    expect(await databaseExists(db.name)).toBe(false);
    await source.destroy().catch(() => undefined);
  });
});
