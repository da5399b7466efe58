/**
 * The JavaScript cost of one list page of 50 findings, part by part, on a database the query
 * bench kept (BENCH_KEEP_DB=1), without HTTP: the statement's round trip with node-pg's row
 * parsing, the row -> view mapping, the view -> DTO mapping, and the response JSON.
 *
 *   BENCH_DB=bench_query_<n> SWC_NODE_PROJECT=tsconfig.base.json \
 *     node -r @swc-node/register tools/bench/query/page-cost.ts
 *
 * Env: BENCH_ROUNDS (default 300). Prints medians in µs per page and the body's size, and the
 * bytes each part allocates on the V8 heap (heap-accounting.ts; a second pass, untimed).
 */
import { performance } from 'node:perf_hooks';
import { Client, type QueryConfig } from 'pg';
import { columnReaders, LEAN_TYPE_PARSERS, type ColumnReader } from '@platform/database';
import { FindingPageDto } from '../../../apps/findings-service/src/modules/findings/dto/finding.dto';
import { toFindingView } from '../../../apps/findings-service/src/modules/findings/finding-row.mapper';
import { findingListSql } from '../../../apps/findings-service/src/modules/findings/list/finding-list.sql';
import { databaseUrl, stackUrl } from '../support/stack-db';
import { startHeapAccounting, takeHeapCounts } from './heap-accounting';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 300);

/** The list statement as FindingsRepository sends it: lean parsers, array rows. */
const asRead = (text: string, values: unknown[]): QueryConfig & { rowMode: 'array' } => ({
  text,
  values,
  types: LEAN_TYPE_PARSERS,
  rowMode: 'array',
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const name = process.env['BENCH_DB'];
  if (!name || !/^bench_query_\d+$/.test(name)) throw new Error('BENCH_DB=bench_query_<n>');
  const client = new Client({ connectionString: databaseUrl(stackUrl(), name) });
  await client.connect();
  try {
    const { sql, params } = findingListSql({
      scope: { all: true },
      filters: { severities: ['CRITICAL', 'HIGH'], statuses: ['new', 'confirmed'] },
      sort: 'created_at',
      order: 'desc',
      fetch: 51,
    });
    const parts: Record<string, number[]> = {
      'SELECT $1 round trip (the floor of any statement)': [],
      'statement + node-pg parsing as FindingsRepository reads (round trip)': [],
      'the statement as row objects, values as text (no type parsing)': [],
      'the statement as row objects, a named prepared statement': [],
      'rows -> FindingView (toFindingView)': [],
      'views -> FindingPageDto (FindingDto.from)': [],
      'JSON.stringify({ data: page })': [],
      'Buffer.from(json) (what the socket write encodes)': [],
    };
    const raw = { getTypeParser: () => (v: string) => v };
    let bytes = 0;
    for (let round = 0; round < ROUNDS + 20; round++) {
      const tFloor = performance.now();
      await client.query('SELECT $1::int AS one', [1]);
      const t0 = performance.now();
      const result = await client.query<unknown[]>(asRead(sql, params));
      const t1 = performance.now();
      await client.query({ text: sql, values: params, types: raw });
      const t2 = performance.now();
      await client.query({ name: 'page-cost', text: sql, values: params });
      const t2b = performance.now();
      const views = columnReaders(result.fields, result.rows).slice(0, 50).map(toFindingView);
      const t3 = performance.now();
      const dto = FindingPageDto.from({ items: views, nextCursor: 'x'.repeat(80) });
      const t4 = performance.now();
      const json = JSON.stringify({ data: dto });
      const t5 = performance.now();
      bytes = Buffer.from(json).length;
      const t6 = performance.now();
      if (round < 20) continue; // warm-up
      const times = [t0 - tFloor, t1 - t0, t2 - t1, t2b - t2, t3 - t2b, t4 - t3, t5 - t4, t6 - t5];
      Object.values(parts).forEach((list, i) => list.push(times[i] * 1000));
    }
    console.log(`one page of 50 findings, ${ROUNDS} rounds, median µs (body ${bytes} bytes):`);
    for (const [part, values] of Object.entries(parts))
      console.log(`${median(values).toFixed(0).padStart(7)}  ${part}`);
    // The same steps again, each between two heap takes (the takes' own bytes subtracted).
    const allocated = new Map<string, number>();
    startHeapAccounting();
    const step = async (part: string, run: () => unknown): Promise<void> => {
      takeHeapCounts();
      await run();
      allocated.set(part, (allocated.get(part) ?? 0) + takeHeapCounts().allocatedBytes);
    };
    let rows: ColumnReader[] = [];
    let views: ReturnType<typeof toFindingView>[] = [];
    let dto: FindingPageDto | undefined;
    let json = '';
    for (let round = 0; round < ROUNDS; round++) {
      await step('(nothing: the takes themselves)', () => undefined);
      await step('statement + node-pg parsing', async () => {
        const result = await client.query<unknown[]>(asRead(sql, params));
        rows = columnReaders(result.fields, result.rows);
      });
      await step('rows -> FindingView', () => (views = rows.slice(0, 50).map(toFindingView)));
      await step('views -> FindingPageDto', () => {
        dto = FindingPageDto.from({ items: views, nextCursor: 'x'.repeat(80) });
      });
      await step('JSON.stringify', () => (json = JSON.stringify({ data: dto })));
    }
    const overhead = (allocated.get('(nothing: the takes themselves)') ?? 0) / ROUNDS;
    console.log(`KB allocated per page (${ROUNDS} rounds, ${json.length} chars of JSON):`);
    for (const [part, total] of allocated)
      console.log(`${((total / ROUNDS - overhead) / 1024).toFixed(1).padStart(7)}  ${part}`);
  } finally {
    await client.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
