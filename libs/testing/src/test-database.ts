import type { Client } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { advisoryLockKey } from '@platform/database';
import { databaseUrl, quoteIdentifier as q, withAdminClient } from './admin-database';
import {
  parseTestDatabaseMarker,
  testDatabaseMarker,
  type TestDatabaseState,
} from './test-database-marker';
import { identifierPart, randomSuffix, testRunId } from './test-run';

export interface TestDatabaseOptions {
  /** Short service name, e.g. `findings`; names the template. */
  service: string;
  /** The service's own options for a database URL (entities and migrations). */
  dataSourceOptions: (url: string) => DataSourceOptions;
}

export interface TestDatabase {
  url: string;
  name: string;
  /** Drops the database, closing connections still open to it. */
  drop(): Promise<void>;
}

/** Test databases of runs that died are dropped once older than this. */
const staleAfterMs = 6 * 60 * 60 * 1000;
const templates = new Map<string, Promise<string>>();

async function markDatabase(admin: Client, name: string, state: TestDatabaseState) {
  const marker = testDatabaseMarker({ createdAt: Date.now(), state, runId: testRunId() });
  await admin.query(`COMMENT ON DATABASE ${q(name)} IS '${marker}'`);
}

async function databaseState(admin: Client, name: string) {
  const { rows } = await admin.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [name],
  );
  if (rows.length === 0) return 'missing';
  return parseTestDatabaseMarker(rows[0]?.comment ?? null)?.state ?? 'building';
}

async function migrate(options: TestDatabaseOptions, name: string): Promise<void> {
  const dataSource = new DataSource(options.dataSourceOptions(databaseUrl(name)));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
  } finally {
    await dataSource.destroy();
  }
}

/** Drops test databases (clones and templates) left behind by runs older than a few hours. */
export async function dropStaleTestDatabases(admin: Client): Promise<string[]> {
  const { rows } = await admin.query<{ name: string; comment: string | null }>(
    `SELECT datname AS name, shobj_description(oid, 'pg_database') AS comment
       FROM pg_database WHERE datname LIKE 't\\_%' OR datname LIKE 'tmpl\\_%'`,
  );
  const stale = rows
    .filter((row) => {
      const marker = parseTestDatabaseMarker(row.comment);
      return marker !== undefined && Date.now() - marker.createdAt > staleAfterMs;
    })
    .map((row) => row.name);
  for (const name of stale) {
    await admin.query(`DROP DATABASE IF EXISTS ${q(name)} WITH (FORCE)`);
  }
  return stale;
}

/**
 * Creates and migrates the template database of a service for this test run, unless another
 * Jest worker already did: an advisory lock on the admin database serializes the workers,
 * the ones that wait then reuse the template. Returns the template's name.
 */
export async function ensureTemplateDatabase(options: TestDatabaseOptions): Promise<string> {
  const template = `tmpl_${identifierPart(options.service, 20)}_${testRunId()}`;
  const key = advisoryLockKey(`platform-test-template:${template}`);
  return withAdminClient(async (admin) => {
    await admin.query(`SET lock_timeout = '300s'`);
    await admin.query('SELECT pg_advisory_lock($1::bigint)', [key]);
    try {
      const state = await databaseState(admin, template);
      if (state === 'ready') return template;
      if (state === 'building') {
        // A previous build died half-way.
        await admin.query(`DROP DATABASE ${q(template)} WITH (FORCE)`);
      }
      await admin.query(`CREATE DATABASE ${q(template)}`);
      await markDatabase(admin, template, 'building');
      await migrate(options, template);
      await markDatabase(admin, template, 'ready');
      await dropStaleTestDatabases(admin);
      return template;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1::bigint)', [key]);
    }
  });
}

function cachedTemplate(options: TestDatabaseOptions): Promise<string> {
  const cacheKey = identifierPart(options.service, 20);
  let template = templates.get(cacheKey);
  if (!template) {
    template = ensureTemplateDatabase(options);
    templates.set(cacheKey, template);
    template.catch(() => templates.delete(cacheKey));
  }
  return template;
}

function testDatabaseNamed(name: string): TestDatabase {
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdminClient(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS ${q(name)} WITH (FORCE)`);
      }),
  };
}

/** An empty database, no migration applied: what a service meets on its first start. */
export async function createEmptyTestDatabase(service: string): Promise<TestDatabase> {
  const name = `t_${identifierPart(service, 20)}_empty_${randomSuffix()}`;
  await withAdminClient(async (admin) => {
    await admin.query(`CREATE DATABASE ${q(name)}`);
    await markDatabase(admin, name, 'ready');
  });
  return testDatabaseNamed(name);
}

/**
 * A fresh, migrated database for one test file: a copy of the service's template database,
 * which is migrated once per test run. Call `drop()` in `afterAll`.
 */
export async function createTestDatabase(options: TestDatabaseOptions): Promise<TestDatabase> {
  const template = await cachedTemplate(options);
  const name = `t_${identifierPart(options.service, 20)}_${randomSuffix()}`;
  await withAdminClient(async (admin) => {
    await admin.query(`CREATE DATABASE ${q(name)} TEMPLATE ${q(template)} STRATEGY FILE_COPY`);
    await markDatabase(admin, name, 'ready');
  });
  return testDatabaseNamed(name);
}
