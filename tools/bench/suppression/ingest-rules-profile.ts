/**
 * Where a batch's suppression costs go (issue 28; not part of `npm test`): the ingestion batch
 * statement of ingest-rules-bench.ts with and without the 50 rules, as EXPLAIN (ANALYZE,
 * BUFFERS) on one connection, alternating, each in a transaction that is rolled back. Prints
 * each statement's planning and execution time per round and the last plan of each.
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/suppression/ingest-rules-profile.ts
 *
 * Env: BENCH_ROUNDS (5), BENCH_RULES (`all` | `matching`), BENCH_KEEP_DB=1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { FindingBatch, fileReportSource, readReport } from '@platform/report-parsing';
import { stagedBatch } from '../../../apps/findings-service/src/modules/findings/bulk-write/finding-row';
import {
  PREPARE_STAGE,
  STAGE,
  STAGED,
  UPSERT,
} from '../../../apps/findings-service/src/modules/findings/bulk-write/findings-bulk-write.sql';
import { INGEST_BATCH_SIZE } from '../../../apps/findings-service/src/modules/report-ingestion/report-ingestion.service';
import { SuppressionMatcher } from '../../../apps/findings-service/src/modules/suppression/suppression-matcher';
import { writeSarif } from '../ingest/sarif-file';
import { benchRules } from './bench-rules';
import { median, post, startBenchApi } from './bench-app';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

async function explain(
  client: PoolClient,
  data: Buffer,
  sql: string,
  params: unknown[],
): Promise<{ planning: number; execution: number; plan: string }> {
  await client.query('BEGIN');
  try {
    await client.query(PREPARE_STAGE);
    const stream = client.query(copyFrom(`COPY ${STAGE} (${STAGED}) FROM STDIN`));
    await new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('finish', resolve);
      stream.end(data);
    });
    const res = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    const lines = (res.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
    const ms = (label: string): number =>
      Number(/([\d.]+) ms/.exec(lines.find((l) => l.startsWith(label)) ?? '')?.[1] ?? NaN);
    return {
      planning: ms('Planning Time'),
      execution: ms('Execution Time'),
      plan: lines.join('\n'),
    };
  } finally {
    await client.query('ROLLBACK');
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'suppression-profile-'));
  const api = await startBenchApi('bench_suppression_profile');
  try {
    const ds = api.app.get(DataSource);
    const project = String((await post(api, '/api/v1/projects', { name: 'rules' }))['id']);
    for (const [i, query] of benchRules().entries()) {
      await post(api, `/api/v1/projects/${project}/suppression-rules`, { name: `r${i}`, query });
    }
    const [product] = (await ds.query(
      `INSERT INTO products (project_id, name) VALUES ($1, $2) RETURNING id`,
      [project, `p-${randomUUID()}`],
    )) as { id: string }[];
    const [{ id: uploader }] = (await ds.query(`SELECT id FROM users LIMIT 1`)) as { id: string }[];
    const reportId = randomUUID();
    await ds.query(
      `INSERT INTO reports (id, product_id, project_id, file_name, storage_key, uploaded_by_kind,
         uploaded_by_id) VALUES ($1, $2, $3, 'bench.sarif', 'bench', 'user', $4)`,
      [reportId, product.id, project, uploader],
    );
    const file = join(dir, 'bench.sarif');
    await writeSarif(file, INGEST_BATCH_SIZE * 2);
    const batches: FindingBatch[] = [];
    for await (const b of readReport(
      fileReportSource(file),
      undefined,
      {},
      {
        batchSize: INGEST_BATCH_SIZE,
      },
    )) {
      batches.push(b);
    }
    const staged = stagedBatch(batches[1].findings);
    const suppression = await api.app
      .get(SuppressionMatcher, { strict: false })
      .forIngestion(project);
    const statement = suppression?.forBatch(staged.facts)?.upsert;
    if (!statement) throw new Error('no rule kept for the batch');
    const now = new Date();
    const params = [product.id, project, now, reportId, now.toISOString(), 7, 30, 90, 180, null];
    const client = (await (
      ds.driver as unknown as { master: { connect(): Promise<PoolClient> } }
    ).master.connect()) as PoolClient & { release(): void };
    try {
      const plain: { planning: number; execution: number; plan: string }[] = [];
      const ruled: { planning: number; execution: number; plan: string }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        plain.push(await explain(client, staged.data, UPSERT, params));
        ruled.push(
          await explain(client, staged.data, statement.text, [...params, ...statement.params]),
        );
        console.log(
          `round ${round + 1}: plain plan ${plain[round].planning} ms exec ${plain[round].execution} ms; ` +
            `rules plan ${ruled[round].planning} ms exec ${ruled[round].execution} ms`,
        );
      }
      const m = (xs: number[]): string => median(xs).toFixed(1);
      console.log(
        `medians: plain plan ${m(plain.map((p) => p.planning))} exec ${m(plain.map((p) => p.execution))}; ` +
          `rules plan ${m(ruled.map((p) => p.planning))} exec ${m(ruled.map((p) => p.execution))} ms`,
      );
      console.log(`--- plain\n${plain[ROUNDS - 1].plan}\n--- rules\n${ruled[ROUNDS - 1].plan}`);
    } finally {
      client.release();
    }
  } finally {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
