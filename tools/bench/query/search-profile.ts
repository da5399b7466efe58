/**
 * Where free-text search spends its time, per search term of the query bench, on a database
 * the bench kept (not part of `npm test`):
 *
 *   BENCH_DB_URL=postgres://postgres@127.0.0.1:55432/bench_query_... \
 *     SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/query/search-profile.ts
 *
 * For each term: the planner's choice (FindingSearchPlanner: plain condition, whole pattern or
 * the piece the index is read for), then the list statement of the findings API (admin,
 * limit 50) under `EXPLAIN (ANALYZE, BUFFERS)`, BENCH_RUNS times (default 5): execution time
 * (median and max), buffers, and the rows the trigram index returned.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { findingListSql } from '../../../apps/findings-service/src/modules/findings/list/finding-list.sql';
import { FindingSearchPlanner } from '../../../apps/findings-service/src/modules/findings/search/finding-search-planner';

const TERMS = ['injection', 'finding', 'module-17/file-3', 'rule-217', 'finding 77777:', 'zqxj'];
const RUNS = Number(process.env['BENCH_RUNS'] ?? 5);

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function indexRows(node: PlanNode): number {
  const own =
    node['Index Name'] === 'ix_finding_search_document_trgm' ||
    node['Index Name'] === 'PK_finding_search_posting'
      ? (node['Actual Rows'] ?? 0)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + indexRows(child), 0);
}

async function main(): Promise<void> {
  const url = process.env['BENCH_DB_URL'];
  if (!url) throw new Error('BENCH_DB_URL: a database kept by the query bench (BENCH_KEEP_DB=1)');
  const ds = new DataSource({ type: 'postgres', url });
  await ds.initialize();
  try {
    const planner = new FindingSearchPlanner(ds);
    console.log('| term | path | median ms | max ms | buffers | index rows |');
    console.log('|---|---|---|---|---|---|');
    for (const term of TERMS) {
      const started = performance.now();
      const indexed = await planner.indexedTerms({ filters: { search: term } });
      const planMs = performance.now() - started;
      const plan = indexed?.get(term);
      const path = !plan
        ? 'plain'
        : plan.words
          ? 'words'
          : plan.probe
            ? `index, piece "${plan.probe.text}"`
            : 'index, whole term';
      const { sql, params } = findingListSql({
        scope: { all: true },
        filters: { search: term },
        indexedSearch: indexed,
        sort: 'created_at',
        order: 'desc',
        fetch: 51,
      });
      const times: number[] = [];
      let buffers = 0;
      let rows = 0;
      for (let i = 0; i < RUNS; i++) {
        const out = (await ds.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params)) as {
          'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }];
        }[];
        const top = out[0]['QUERY PLAN'][0];
        times.push(top['Execution Time']);
        buffers = (top.Plan['Shared Hit Blocks'] ?? 0) + (top.Plan['Shared Read Blocks'] ?? 0);
        rows = indexRows(top.Plan);
      }
      times.sort((a, b) => a - b);
      console.log(
        `| \`${term}\` | ${path} (choice ${planMs.toFixed(1)} ms) | ${times[Math.floor(times.length / 2)].toFixed(1)} | ${times[times.length - 1].toFixed(1)} | ${buffers} | ${rows} |`,
      );
    }
  } finally {
    await ds.destroy();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
