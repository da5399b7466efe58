import { DataSource } from 'typeorm';
import { startTestApp, testDatabase, type TestApp } from '../support/test-app';
import type { TestDatabase } from '@platform/testing';

const URL = 'https://catalog.example.com/official/catalog.json';

describe('the official catalog source', () => {
  let db: TestDatabase;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    db = await testDatabase();
  });
  afterAll(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    await db?.drop();
  });

  const official = async (t: TestApp) =>
    (await t.app
      .get(DataSource)
      .query(
        `SELECT id, name, catalog_url, public_key, allows_native, is_active FROM plugin_sources WHERE official`,
      )) as Record<string, unknown>[];

  it('is registered once at first start, without the native permission, by any number of replicas and restarts', async () => {
    const env = { PLUGIN_OFFICIAL_CATALOG_URL: URL };
    const replicas = await Promise.all([
      startTestApp(env, { db }),
      startTestApp(env, { db }),
      startTestApp(env, { db }),
    ]);
    apps.push(...replicas);
    const rows = await official(replicas[0]);
    expect(rows).toEqual([
      expect.objectContaining({
        catalog_url: URL,
        public_key: null,
        allows_native: false,
        is_active: true,
      }),
    ]);
    await Promise.all(apps.splice(0).map((a) => a.close()));

    const restarted = await startTestApp(
      { PLUGIN_OFFICIAL_CATALOG_URL: 'https://elsewhere.example.com/c.json' },
      { db },
    );
    apps.push(restarted);
    expect(await official(restarted)).toEqual(rows);
    // Four API boots, three of them at once: over the 60 s default on a loaded 2-core machine.
  }, 180_000);
});
