import { createEmptyTestDatabase, startServiceProcess, type TestDatabase } from '@platform/testing';
import { Client } from 'pg';
import { CERTSVC_MIGRATIONS } from '../../src/database/migrations';
import { TEST_JWT_SECRET } from '../support/test-app';

/** `node migrate.js` (src/migrate.ts): the Helm chart's pre-install/pre-upgrade Job. */
function runMigrate(databaseUrl: string) {
  return startServiceProcess({
    entry: 'apps/certificate-service/src/migrate.ts',
    env: {
      CERTSVC_DATABASE_URL: databaseUrl,
      CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
      CERTSVC_CA_KEY_ENC_KEY: '42'.repeat(32),
      CERTSVC_LOG_LEVEL: 'info',
    },
  });
}

describe('The migrate command', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createEmptyTestDatabase('certificate');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('two at once on an empty database: one applies every migration, the other finds none left, both exit 0', async () => {
    const runs = [runMigrate(db.url), runMigrate(db.url)];
    const ends = await Promise.all(runs.map((r) => r.ended));
    expect(ends).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    const outputs = runs.map((r) => r.output());
    const applied = `applied ${CERTSVC_MIGRATIONS.length} migration(s)`;
    expect(outputs.filter((o) => o.includes(applied))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('database schema is up to date'))).toHaveLength(1);

    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM migrations GROUP BY name HAVING count(*) > 1',
      );
      expect(rows).toEqual([]);
      const total = await client.query<{ n: string }>('SELECT count(*) AS n FROM migrations');
      expect(Number(total.rows[0].n)).toBe(CERTSVC_MIGRATIONS.length);
    } finally {
      await client.end();
    }
  });

  it('an invalid configuration exits 1 with the problem, not a stack trace', async () => {
    const run = startServiceProcess({
      entry: 'apps/certificate-service/src/migrate.ts',
      env: { CERTSVC_DATABASE_URL: db.url },
    });
    expect(await run.ended).toEqual({ code: 1, signal: null });
    expect(run.output()).toContain('certificate-service migration failed');
    expect(run.output()).toContain('CERTSVC_JWT_SECRET is required');
    expect(run.output()).not.toMatch(/\n\s+at /);
  });
});
