/**
 * Enrichment benchmark (not part of `npm test`). From the repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/enrichment/enrichment-bench.ts
 *
 * The catalog's CMDB enricher (tools/catalog/plugins/cmdb-enricher, built and signed like the
 * tests, cached by source hash) in a real plugin runner process, a Metabase-style CMDB stand-in
 * holding one row per address, and the findings API and worker in this process against the
 * stack's PostgreSQL and Redis (the e2e tests' set-up). Each round uploads the same report of
 * BENCH_FINDINGS (10 000) network findings, each on its own address, twice into fresh products:
 *   A. the enricher disabled: ingest only (upload → report completed) — the in-run reference;
 *   B. the enricher enabled: ingest (upload → completed) and enrichment end to end (upload →
 *      every finding's enrichment tags written: ingest → jobs → runner → tags).
 * Printed: medians over BENCH_ROUNDS (3) of A's ingest, B's ingest (ratio B/A: ingestion with
 * an enricher enabled vs without), B's enrichment after ingest and end to end, and the load.
 * Env: BENCH_FINDINGS, BENCH_ROUNDS.
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { publisherKey } from '@platform/plugin-protocol/testing';
import request from 'supertest';
import {
  RUNNER_TOKEN,
  buildCatalogPlugin,
  startRunnerProcess,
} from '../../../apps/findings-service/test/catalog-plugins/support/catalog-plugin-lab';
import {
  networkSarif,
  seedInstalledPlugin,
  setPluginEnabled,
} from '../../../apps/findings-service/test/catalog-plugins/support/installed-plugin-seed';
import { startMetabaseStandIn } from '../../../apps/findings-service/test/catalog-plugins/support/stand-ins';
import { withDb } from '../../../apps/findings-service/test/support/findings-db';
import { freshProduct } from '../../../apps/findings-service/test/support/findings-seed';
import { startIngestion } from '../../../apps/findings-service/test/support/ingestion-env';

const FINDINGS = Number(process.env['BENCH_FINDINGS'] ?? 10_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

const ipOf = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function main(): Promise<void> {
  const publisher = publisherKey();
  console.log(
    `machine: ${cpus()[0]?.model ?? '?'} x${availableParallelism()}, ${Math.round(totalmem() / 2 ** 30)} GiB; ` +
      `load before ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  const cmdb = await buildCatalogPlugin('cmdb-enricher', publisher.privateKey);
  const { runner, grpcPort } = await startRunnerProcess();
  const metabase = await startMetabaseStandIn(
    {
      databaseId: 1,
      tableId: 2,
      columns: ['ip', 'hostname', 'owner', 'env'],
      rows: Array.from({ length: FINDINGS }, (_, i) => [
        ipOf(i),
        `host-${i}`,
        `team-${i % 17}`,
        i % 3 ? 'prod' : 'test',
      ]),
    },
    'bench-key',
  );
  const stack = await startIngestion({
    worker: true,
    env: { PLUGIN_RUNNER_URL: `127.0.0.1:${grpcPort}`, PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN },
  });
  const { t, admin } = stack;
  try {
    const pluginId = await seedInstalledPlugin(t, cmdb, {
      publicKeyPem: publisher.publicKeyPem,
      settings: {
        cmdb_base_url: metabase.url,
        database_id: 1,
        servers_table_id: 2,
        column_to_tag_key: { owner: 'owner', env: 'environment' },
      },
      secrets: { api_token: 'bench-key' },
      enabled: false,
    });
    const report = networkSarif(FINDINGS, ipOf);
    const count = (productId: string, where: string) =>
      withDb(t, async (db) => {
        const res = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM findings WHERE product_id = $1 AND ${where}`,
          [productId],
        );
        return res.rows[0]?.n ?? 0;
      });
    const waitFor = async (check: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 600_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const run = async (withEnricher: boolean) => {
      await setPluginEnabled(t, pluginId, withEnricher);
      const product = await freshProduct(t, admin);
      const started = performance.now();
      const res = await request(t.url)
        .post(`/api/v1/products/${product.id}/reports`)
        .set('Authorization', `Bearer ${admin.token}`)
        .attach('file', Buffer.from(report), 'bench.sarif')
        .expect(202);
      const reportId = (res.body as { data: { report_id: string } }).data.report_id;
      await waitFor(async () => {
        const r = await request(t.url)
          .get(`/api/v1/reports/${reportId}`)
          .set('Authorization', `Bearer ${admin.token}`);
        const status = (r.body as { data: { status: string } }).data.status;
        if (status === 'failed') throw new Error(`report failed: ${JSON.stringify(r.body)}`);
        return status === 'completed';
      }, 'report completed');
      const ingestMs = performance.now() - started;
      if (!withEnricher) return { ingestMs };
      await waitFor(
        async () => (await count(product.id, `enrichment_tags <> '{}'`)) >= FINDINGS,
        'every finding enriched',
      );
      const totalMs = performance.now() - started;
      return { ingestMs, totalMs, enrichMs: totalMs - ingestMs };
    };
    // Warm-up: the runner loads and compiles the component, the first report pays the JIT.
    await run(true);
    const a: number[] = [];
    const b: number[] = [];
    const enrich: number[] = [];
    const total: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ref = await run(false);
      const withIt = await run(true);
      a.push(ref.ingestMs);
      b.push(withIt.ingestMs);
      enrich.push(withIt.enrichMs ?? 0);
      total.push(withIt.totalMs ?? 0);
      console.log(
        `round ${round + 1}: ingest only ${(ref.ingestMs / 1000).toFixed(2)} s | with enricher: ingest ` +
          `${(withIt.ingestMs / 1000).toFixed(2)} s, enrichment after ingest ${((withIt.enrichMs ?? 0) / 1000).toFixed(2)} s, ` +
          `end to end ${((withIt.totalMs ?? 0) / 1000).toFixed(2)} s`,
      );
    }
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `\n${FINDINGS} findings, medians of ${ROUNDS} rounds:\n` +
        `  reference, ingest only (enricher disabled): ${s(median(a))} (${Math.round((FINDINGS / median(a)) * 1000)} findings/s)\n` +
        `  ingest with the enricher enabled:           ${s(median(b))} (ratio ${(median(b) / median(a)).toFixed(3)})\n` +
        `  enrichment after ingest:                    ${s(median(enrich))} (${Math.round((FINDINGS / median(enrich)) * 1000)} findings/s)\n` +
        `  end to end (upload -> every tag written):   ${s(median(total))} (target: enrichment <= 30 s)\n` +
        `  CMDB table reads: ${metabase.requests.length} (one per job per sandbox thread)\n` +
        `load after ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    await stack.close();
    await runner.stop();
    await metabase.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
