/**
 * Profile of the bulk status change (not part of `npm test`), on a database the lifecycle
 * bench kept (BENCH_KEEP_DB=1): the statement POST /findings/bulk-status runs for the bench's
 * bulk product (`bench-bulk`, 50 000 findings) beside the references, each in a transaction
 * that is rolled back (the rows stay as they were; VACUUM between runs, untimed):
 *
 *   BENCH_DB=bench_lifecycle_... BENCH_TO=confirmed BENCH_ROUNDS=3 \
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/lifecycle/profile-bulk-status.ts
 *
 * Per variant and round: wall time and the CPU time of the PostgreSQL backend (from /proc).
 * Variants: the plain UPDATE reference; the floor (the same UPDATE writing one action-log row
 * per finding in the same statement); the bulk statement with the server's JIT setting (as
 * before issue 34) and as the repository sends it (its SET LOCAL settings, then the statement);
 * BENCH_EXTRA='<settings>|<settings>' adds the repository's statements after other settings. BENCH_EXPLAIN=1 prints
 * EXPLAIN (ANALYZE, BUFFERS, WAL) of each instead. BENCH_RESET=<status> first puts the
 * product's findings into that status without a clock (committed).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Client } from 'pg';
import type { FindingStatus } from '../../../apps/findings-service/src/modules/findings/finding-status';
import { BulkStatusRepository } from '../../../apps/findings-service/src/modules/findings/lifecycle/bulk-status.repository';
import { planBulkTransition } from '../../../apps/findings-service/src/modules/findings/lifecycle/finding-lifecycle';
import { databaseUrl, stackEnv } from '../support/stack-db';

const TICK_MS = 10; // CLK_TCK 100 on Linux

async function backendCpuMs(client: Client): Promise<number> {
  const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Captures the statements the repository sends (no DataSource needed). */
function capture(): { ds: never; sent: { sql: string; values: unknown[] }[] } {
  const sent: { sql: string; values: unknown[] }[] = [];
  const ds = {
    query: async (sql: string, values: unknown[]) => {
      sent.push({ sql, values });
      return [{ matched: 0, changed: 0, closed: 0 }];
    },
    transaction: async (work: (m: unknown) => Promise<unknown>) =>
      work({
        query: async (sql: string, values: unknown[] = []) => {
          sent.push({ sql, values });
          return [{ matched: 0, changed: 0, closed: 0 }];
        },
      }),
  };
  return { ds: ds as never, sent };
}

async function main(): Promise<void> {
  const name = process.env['BENCH_DB'];
  if (!name) throw new Error('BENCH_DB: a database kept by the lifecycle bench');
  const to = (process.env['BENCH_TO'] ?? 'confirmed') as FindingStatus;
  const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
  const url = databaseUrl(stackEnv()['STACK_PG_URL'], name);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const [product] = (await client.query(`SELECT id FROM products WHERE name = 'bench-bulk'`))
      .rows as { id: string }[];
    if (!product) throw new Error('no bench-bulk product');
    if (process.env['BENCH_RESET']) {
      await client.query(
        `UPDATE findings SET status = $2, sla_started_at = NULL, sla_paused_at = NULL,
           sla_idle_ms = 0, sla_due_at = NULL, risk_accepted_until = NULL WHERE product_id = $1`,
        [product.id, process.env['BENCH_RESET']],
      );
    }
    const now = new Date();
    const { ds, sent } = capture();
    await new BulkStatusRepository(ds).apply(
      { all: true },
      { selection: { filters: { productIds: [product.id] }, query: undefined } },
      planBulkTransition(to, {}, now),
      { type: 'user', id: '00000000-0000-4000-8000-000000000001', label: 'bench' },
      now,
      100_000,
      ['risk_accepted', 'false_positive', 'wont_fix'].includes(to) ? 'bench' : null,
    );
    const variants: { label: string; statements: { sql: string; values: unknown[] }[] }[] = [
      {
        label: 'plain UPDATE (reference)',
        statements: [
          {
            sql: `UPDATE findings SET status = $2, updated_at = now() WHERE product_id = $1`,
            values: [product.id, to],
          },
        ],
      },
      {
        label: 'floor: plain UPDATE + one log row each',
        statements: [
          {
            sql: `WITH u AS (UPDATE findings SET status = $2, updated_at = now() WHERE product_id = $1
                    RETURNING id, project_id)
                  INSERT INTO finding_actions (finding_id, project_id, actor_type, actor_id, actor_label,
                    action, from_value, to_value, at)
                  SELECT id, project_id, 'user', $3::uuid, 'bench', 'status_changed',
                    '{"status":"new"}'::jsonb, jsonb_build_object('status', $2::text), now() FROM u`,
            values: [product.id, to, '00000000-0000-4000-8000-000000000001'],
          },
        ],
      },
      {
        label: 'bulk status statement, JIT by the server default (before)',
        statements: [
          { sql: 'SET LOCAL jit = on', values: [] },
          ...sent.filter((x) => !x.sql.startsWith('SET LOCAL')),
        ],
      },
      { label: 'bulk status as the repository sends it', statements: sent },
    ];
    for (const extra of (process.env['BENCH_EXTRA'] ?? '').split('|').filter(Boolean)) {
      variants.push({
        label: `bulk status after ${extra}`,
        statements: [{ sql: extra, values: [] }, ...sent],
      });
    }
    const explain = process.env['BENCH_EXPLAIN'] === '1';
    const results = new Map<string, { wall: number; cpu: number }[]>();
    for (let round = 1; round <= rounds; round++) {
      for (const v of variants) {
        await client.query('VACUUM findings');
        await client.query('VACUUM finding_actions');
        await client.query('CHECKPOINT');
        await client.query('BEGIN');
        const cpu0 = await backendCpuMs(client);
        const t0 = performance.now();
        for (const s of v.statements) {
          if (/^\s*(BEGIN|COMMIT)/i.test(s.sql)) continue; // the variant's own transaction
          const text =
            explain && /^\s*(WITH|UPDATE|INSERT)/.test(s.sql)
              ? `EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF) ${s.sql}`
              : s.sql;
          const res = await client.query(text, s.values);
          if (explain && text.startsWith('EXPLAIN')) {
            console.log(
              `\n=== ${v.label}\n${(res.rows as Record<string, string>[]).map((r) => r['QUERY PLAN']).join('\n')}`,
            );
          }
        }
        const wall = performance.now() - t0;
        const cpu = (await backendCpuMs(client)) - cpu0;
        await client.query('ROLLBACK');
        const list = results.get(v.label) ?? [];
        list.push({ wall, cpu });
        results.set(v.label, list);
        console.log(
          `round ${round} | ${v.label} | ${wall.toFixed(0)} ms wall | ${cpu} ms CPU | load ${loadavg()[0].toFixed(1)}`,
        );
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const ref = results.get(variants[0]!.label)!;
    console.log(`\nmedians over ${rounds} rounds, ratio = reference time / variant time:`);
    for (const [label, list] of results) {
      const w = median(list.map((r) => r.wall));
      const c = median(list.map((r) => r.cpu));
      console.log(
        `| ${label} | ${w.toFixed(0)} ms | ${c} ms CPU | ratio wall ${(median(ref.map((r) => r.wall)) / w).toFixed(2)} | ratio CPU ${(median(ref.map((r) => r.cpu)) / c).toFixed(2)} |`,
      );
    }
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
