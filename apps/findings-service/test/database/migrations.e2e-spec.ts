import { detectSchemaDrift } from '@platform/database';
import {
  createEmptyTestDatabase,
  freePort,
  startServiceProcess,
  testRedisUrl,
  waitForHealthy,
  type ServiceProcess,
} from '@platform/testing';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { findingsDataSourceOptions } from '../../src/database/data-source';
import { FINDINGS_MIGRATIONS } from '../../src/database/migrations';
import { testDatabase } from '../support/test-app';

/** The API entry point on `port`, as deployed (production mode, migrations at start). */
function startApi(databaseUrl: string, port: number, metricsPort: number): ServiceProcess {
  return startServiceProcess({
    entry: 'apps/findings-service/src/main.ts',
    url: `http://127.0.0.1:${port}`,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: testRedisUrl(),
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
      APP_ENV: 'production',
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      LOG_FILE_SINK_ENABLED: 'false',
    },
  });
}

describe('Migrations - schema drift and concurrent start', () => {
  it('finds no drift between entities and migrations on a migrated database', async () => {
    const db = await testDatabase();
    const ds = new DataSource(findingsDataSourceOptions(db.url));
    await ds.initialize();
    try {
      expect(await detectSchemaDrift(ds)).toEqual([]);
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });

  it('two API processes racing on an empty database: one migrates, both serve, each migration once', async () => {
    const db = await createEmptyTestDatabase('findings');
    const apis: ServiceProcess[] = [];
    try {
      for (let i = 0; i < 2; i++) apis.push(startApi(db.url, await freePort(), await freePort()));
      await Promise.all(apis.map((p) => waitForHealthy(p, 90_000)));
      const client = new Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query<{ name: string; n: string }>(
        'SELECT name, count(*) AS n FROM migrations GROUP BY name',
      );
      await client.end();
      expect(rows.map((r) => r.name).sort()).toEqual(FINDINGS_MIGRATIONS.map((m) => m.name).sort());
      expect(rows.every((r) => r.n === '1')).toBe(true);
      const appliedBy = apis.filter((p) => /applied \d+ migration\(s\)/.test(p.output()));
      expect(appliedBy).toHaveLength(1);
      const exits = await Promise.all(apis.map((p) => p.stop()));
      expect(exits).toEqual([true, true]);
    } finally {
      await Promise.all(apis.map((p) => p.stop()));
      await db.drop();
    }
  }, 150_000);
});
