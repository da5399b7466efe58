import {
  createEmptyTestDatabase,
  freePort,
  startServiceProcess,
  waitForHealthy,
  type ServiceProcess,
  type TestDatabase,
} from '@platform/testing';
import { Client } from 'pg';
import { CERTSVC_MIGRATIONS } from '../../src/database/migrations';
import { TEST_JWT_SECRET } from '../support/test-app';

/** The API entry point on `port`, as deployed (migrations at start). */
function startApi(databaseUrl: string, port: number): ServiceProcess {
  return startServiceProcess({
    entry: 'apps/certificate-service/src/main.ts',
    url: `http://127.0.0.1:${port}`,
    env: {
      CERTSVC_DATABASE_URL: databaseUrl,
      CERTSVC_PORT: String(port),
      CERTSVC_HOST: '127.0.0.1',
      CERTSVC_JWT_SECRET: TEST_JWT_SECRET,
      CERTSVC_CA_KEY_ENC_KEY: '42'.repeat(32),
      CERTSVC_LOG_LEVEL: 'info',
    },
  });
}

describe('Migrations - two API processes starting on an empty database', () => {
  let db: TestDatabase;
  const apis: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await createEmptyTestDatabase('certificate');
  });
  afterAll(async () => {
    await Promise.all(apis.map((api) => api.stop()));
    await db?.drop();
  });

  it('both come up, each migration is recorded once, and the start line carries the version', async () => {
    apis.push(startApi(db.url, await freePort()), startApi(db.url, await freePort()));
    await Promise.all(apis.map((a) => waitForHealthy(a, 90_000)));

    const client = new Client({ connectionString: db.url });
    await client.connect();
    const rows = await client
      .query<{ name: string; n: string }>(
        'SELECT name, count(*) AS n FROM migrations GROUP BY name',
      )
      .finally(() => client.end());
    expect(rows.rows.map((r) => [r.name, Number(r.n)]).sort()).toEqual(
      CERTSVC_MIGRATIONS.map((m) => [m.name, 1]).sort(),
    );

    const outputs = apis.map((a) => a.output());
    expect(outputs.filter((o) => /applied \d+ migration\(s\)/.test(o))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('database schema is up to date'))).toHaveLength(1);
    for (const api of apis) {
      const start = api.jsonLines().find((l) => l.msg === 'starting certificate-service');
      expect(start).toMatchObject({
        level: 'info',
        commit: expect.any(String),
        built_at: expect.any(String),
      });
      expect(String(start?.version)).toMatch(/^\d+\.\d+\.\d{14}\+[0-9a-z]+$/);
    }
  }, 120_000);
});
