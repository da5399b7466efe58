/**
 * A suppression run over 1 M findings (issue 28; not part of `npm test`). One command from the
 * repository root:
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/suppression/run-bench.ts
 *
 * Boots the real API in-process on a scratch database (migrations), loads BENCH_FINDINGS
 * (1 000 000) findings into one project set-based (tools/bench/support/seed-findings.ts: a
 * quarter under lib/vendor/), VACUUM ANALYZE, creates the rule `file_path:lib/vendor/*` through
 * the API, then times, alternating BENCH_ROUNDS times (default 2), with every suppression
 * released in between:
 * - the run: SuppressionRunRunner, the job's code without the queue (chunks of 5 000 by id,
 *   each one UPDATE with a `suppressed` action-log entry per finding, progress on the rule);
 *   figure: findings walked per second (the project's findings / elapsed);
 * - the in-run reference: one plain `UPDATE findings SET suppression_rule_id = …, suppressed_at
 *   = now() WHERE project_id = … AND file_path ILIKE 'lib/vendor/%'` of the same rows.
 * Prints both, the matched count and run / reference (target: the run ≥ 50 000 findings/s).
 * Env: BENCH_FINDINGS, BENCH_ROUNDS, BENCH_KEEP_DB=1.
 */
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SuppressionRulesRepository } from '../../../apps/findings-service/src/modules/suppression/suppression-rules.repository';
import { SuppressionRunsRepository } from '../../../apps/findings-service/src/modules/suppression/suppression-runs.repository';
import { SuppressionRunRunner } from '../../../apps/findings-service/src/modules/suppression/suppression-run.runner';
import { SEED_FINDINGS_SQL } from '../support/seed-findings';
import { fmt, median, post, startBenchApi } from './bench-app';

const TOTAL = Number(process.env['BENCH_FINDINGS'] ?? 1_000_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
const QUERY = 'file_path:lib/vendor/*';

async function main(): Promise<void> {
  const api = await startBenchApi('bench_suppression_run');
  try {
    const ds = api.app.get(DataSource);
    const projectId = String((await post(api, '/api/v1/projects', { name: 'run bench' }))['id']);
    const productId = String(
      (await post(api, `/api/v1/projects/${projectId}/products`, { name: 'p' }))['id'],
    );
    let t = performance.now();
    for (let done = 0; done < TOTAL; done += 250_000) {
      await ds.query(SEED_FINDINGS_SQL, [
        productId,
        projectId,
        Math.min(250_000, TOTAL - done),
        `s${done}`,
      ]);
    }
    await ds.query('VACUUM ANALYZE findings');
    console.log(
      `seeded ${fmt(TOTAL)} findings in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const rule = await post(api, `/api/v1/projects/${projectId}/suppression-rules`, {
      name: 'vendored',
      query: QUERY,
    });
    const ruleId = String(rule['id']);
    const rules = api.app.get(SuppressionRunsRepository, { strict: false });
    const runner = new SuppressionRunRunner(
      rules,
      api.app.get(SuppressionRulesRepository, { strict: false }),
    );
    const release = () =>
      ds.query(
        `UPDATE findings SET suppression_rule_id = NULL, suppressed_at = NULL
          WHERE suppression_rule_id IS NOT NULL`,
      );

    const runs: number[] = [];
    const refs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const jobId = `sup-${randomUUID()}`;
      if (!(await rules.startRun(ruleId, jobId))) throw new Error('run already going');
      t = performance.now();
      const result = await runner.run(
        {
          jobId,
          projectId,
          ruleId,
          query: QUERY,
          actor: { type: 'system', id: null, label: 'bench' },
        },
        async () => undefined,
      );
      const runMs = performance.now() - t;
      await release();
      await ds.query('VACUUM findings');

      t = performance.now();
      const [, matched] = (await ds.query(
        `UPDATE findings SET suppression_rule_id = $1, suppressed_at = now()
          WHERE project_id = $2 AND file_path ILIKE 'lib/vendor/%'`,
        [ruleId, projectId],
      )) as [unknown, number];
      const refMs = performance.now() - t;
      await release();
      await ds.query('VACUUM findings');

      runs.push((result.done / runMs) * 1000);
      refs.push((result.done / refMs) * 1000);
      console.log(
        `round ${round + 1}: run ${result.state}, ${fmt(result.done)} walked, ${fmt(result.matched)} suppressed ` +
          `in ${(runMs / 1000).toFixed(1)} s = ${fmt(runs[round])} findings/s; ` +
          `reference UPDATE of ${fmt(matched)} rows ${(refMs / 1000).toFixed(1)} s = ${fmt(refs[round])} findings/s`,
      );
    }
    const run = median(runs);
    const ref = median(refs);
    console.log(`run: median ${fmt(run)} findings/s (target >= 50,000)`);
    console.log(`reference (plain UPDATE of the matched rows): median ${fmt(ref)} findings/s`);
    console.log(`ratio run / reference: ${(run / ref).toFixed(3)}`);
  } finally {
    await api.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
