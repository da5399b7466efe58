/**
 * Prints the SQL that would bring DATABASE_URL (migrated first) in line with the entities:
 * the body of the next migration. Empty output means no drift.
 *   DATABASE_URL=... SWC_NODE_PROJECT=tsconfig.base.json \
 *     node -r @swc-node/register apps/findings-service/src/database/print-schema-drift.ts
 */
import 'reflect-metadata';
import { detectSchemaDrift, runMigrationsUnderLock } from '@platform/database';
import { DataSource } from 'typeorm';
import { loadFindingsConfig } from '../app/config/findings-config';
import { findingsDataSourceOptions, MIGRATION_LOCK_KEY } from './data-source';

async function main(): Promise<void> {
  const config = loadFindingsConfig({ ...process.env, REDIS_URL: 'redis://unused' }, 'api');
  const dataSource = new DataSource(
    findingsDataSourceOptions(config.databaseUrl, 'findings-drift'),
  );
  await dataSource.initialize();
  try {
    const quiet = { log: () => undefined, warn: () => undefined };
    await runMigrationsUnderLock(dataSource, {
      lockKey: MIGRATION_LOCK_KEY,
      waitSeconds: 30,
      logger: quiet,
    });
    for (const sql of await detectSchemaDrift(dataSource)) process.stdout.write(`${sql};\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
