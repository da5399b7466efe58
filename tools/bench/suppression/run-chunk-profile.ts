/**
 * A suppression run's chunk statement as EXPLAIN (ANALYZE, BUFFERS) on a database kept by
 * run-bench.ts (BENCH_KEEP_DB=1), rolled back (issue 28; not part of `npm test`):
 *
 *   PROFILE_DB=bench_suppression_run_<n> PROFILE_SIZE=5000 SWC_NODE_PROJECT=tsconfig.base.json \
 *     node -r @swc-node/register tools/bench/suppression/run-chunk-profile.ts
 *
 * Walks from the first id of the project (the chunk of `PROFILE_SIZE` findings after it).
 */
import { Client } from 'pg';
import { databaseUrl } from '../support/stack-db';
import { suppressChunkSql } from '../../../apps/findings-service/src/modules/findings/suppression/finding-suppression.sql';
import { storedPredicate } from '../../../apps/findings-service/src/modules/suppression/suppression-query';

async function main(): Promise<void> {
  const base = process.env['STACK_PG_URL'] ?? 'postgres://postgres@127.0.0.1:55432/postgres';
  const db = new Client({
    connectionString: databaseUrl(base, process.env['PROFILE_DB'] ?? ''),
  });
  await db.connect();
  try {
    const [rule] = (
      await db.query(
        `SELECT id, project_id, query FROM suppression_rules ORDER BY created_at LIMIT 1`,
      )
    ).rows as { id: string; project_id: string; query: string }[];
    const predicate = storedPredicate(rule.query, 7);
    const size = Number(process.env['PROFILE_SIZE'] ?? 5000);
    for (let round = 0; round < 3; round++) {
      await db.query('BEGIN');
      const res = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${suppressChunkSql(predicate.sql)}`, [
        rule.project_id,
        '00000000-0000-0000-0000-000000000000',
        size,
        rule.id,
        'system',
        null,
        'profile',
        ...predicate.params,
      ]);
      await db.query('ROLLBACK');
      const lines = (res.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
      if (round === 2) console.log(lines.join('\n'));
      else console.log(lines.filter((l) => /Time|Trigger/.test(l)).join('\n'));
    }
  } finally {
    await db.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
