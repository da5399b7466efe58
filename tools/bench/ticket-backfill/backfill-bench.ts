/**
 * Ticket backfill benchmark (issue 27, design §7; not part of `npm test`). From the root:
 *
 *   bash tools/stack/stack.sh up
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/ticket-backfill/backfill-bench.ts
 *
 * The catalog's `jira-provider` (tools/catalog/plugins/jira-provider, built and signed with the
 * SDK like the catalog-plugins e2e tests) in a real plugin runner process; the findings API and
 * worker in this process (the e2e set-up, stack PostgreSQL + Redis) against the loopback Jira
 * stand-in of libs/testing (`startJiraStandIn`, REST v2, Basic email:token) limited to
 * BENCH_RATE requests per second (token bucket, burst one second's worth; past it 429 with
 * `Retry-After` and Jira's error body).
 *
 * Per run: a fresh project with the provider configured (`PUT .../ticket-provider/config`),
 * BENCH_FINDINGS open findings inserted set-based, `POST .../tickets/backfill {mode: "create"}`,
 * polled in `ticket_backfills` until it ends. Run 1 with the limit, run 2 with it off, the
 * tracker emptied before each. A warm-up project of a few findings goes first, so the runner's
 * load of the component is not in the figures. Measured: `started_at` → `finished_at` of the
 * row (database clock), findings/s, requests the tracker answered per second vs R, 429s, peak
 * answered in any one second (counters sampled every 250 ms), the row's counters, findings left
 * without a ticket.
 *
 * Reference in the same run: BENCH_FINDINGS create-issue requests sent straight to the stand-in
 * by one plain sequential HTTP client (fetch, keep-alive), with the same limit and with none;
 * on a 429 it waits `Retry-After` and sends the request again.
 *
 * The bench also times a few stages of the walk in-process (per finding, each provider call,
 * the runner invoke) and counts the provider errors the gateway saw, by kind and text.
 *
 * Env: BENCH_FINDINGS (10 000), BENCH_RATE (100 requests/s), BENCH_RUNS (`limited,unlimited`),
 * BENCH_CONCURRENCY (the walk's findings at once; TICKET_BACKFILL_CONCURRENCY when unset).
 * At the limit (R well under what the walk can send):
 *   BENCH_FINDINGS=1000 BENCH_RATE=10 BENCH_RUNS=limited
 * Results: docs/benchmarks.md#ticket-backfill.
 */
import { publisherKey } from '@platform/plugin-protocol/testing';
import { startJiraStandIn, type JiraStandIn } from '@platform/testing/trackers';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { DataSource } from 'typeorm';
import {
  buildCatalogPlugin,
  RUNNER_TOKEN,
  startRunnerProcess,
} from '../../../apps/findings-service/test/catalog-plugins/support/catalog-plugin-lab';
import { HostCallResponder } from '../../../apps/findings-service/src/modules/plugin-runner-client/host-call-responder';
import { PluginRunnerClient } from '../../../apps/findings-service/src/modules/plugin-runner-client/plugin-runner.client';
import { InstalledPluginsService } from '../../../apps/findings-service/src/modules/plugins/installed-plugins/installed-plugins.service';
import { TicketBackfillRunner } from '../../../apps/findings-service/src/modules/tickets/backfill/ticket-backfill.runner';
import {
  providerErrorKind,
  TicketProviderGateway,
} from '../../../apps/findings-service/src/modules/tickets/ticket-provider.gateway';
import { TicketsRepository } from '../../../apps/findings-service/src/modules/tickets/tickets.repository';
import { seedInstalledPlugin } from '../../../apps/findings-service/test/catalog-plugins/support/installed-plugin-seed';
import { freshProduct } from '../../../apps/findings-service/test/support/findings-seed';
import { loginAdmin } from '../../../apps/findings-service/test/support/sessions';
import {
  startIngestion,
  startWorker,
} from '../../../apps/findings-service/test/support/ingestion-env';
import { ownCpuSeconds, treeCpuSeconds } from '../support/process-cpu';

const FINDINGS = Number(process.env['BENCH_FINDINGS'] ?? 10_000);
const RATE = Number(process.env['BENCH_RATE'] ?? 100);
const RUNS = (process.env['BENCH_RUNS'] ?? 'limited,unlimited').split(',').map((s) => s.trim());
const CONCURRENCY = process.env['BENCH_CONCURRENCY']
  ? Number(process.env['BENCH_CONCURRENCY'])
  : undefined;
const WARM_UP_FINDINGS = 5;
const EMAIL = 'findings-bot@example.test';
const API_TOKEN = 'bench-jira-token-5f4e3d2c1b';
const PROJECT_KEY = 'SEC';

const load = () => readFileSync('/proc/loadavg', 'utf8').trim();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const basic = `Basic ${Buffer.from(`${EMAIL}:${API_TOKEN}`).toString('base64')}`;

/** Wall time of a few stages of the backfill path (this process), per run; errors by kind. */
const stages = new Map<string, number[]>();
const providerErrors = new Map<string, number>();
function record(name: string, ms: number): void {
  const s = stages.get(name) ?? [];
  s.push(ms);
  stages.set(name, s);
}
function timeStage(
  proto: object,
  method: string,
  name: (args: unknown[]) => string,
  onError?: (error: unknown) => void,
): void {
  const target = proto as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  target[method] = async function timed(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    try {
      return await original.apply(this, args);
    } catch (error) {
      onError?.(error);
      throw error;
    } finally {
      record(name(args), performance.now() - started);
    }
  };
}
timeStage(
  TicketBackfillRunner.prototype,
  'one',
  () => 'per finding (transaction: lock, provider calls, link)',
);
timeStage(TicketsRepository.prototype, 'lockLabel', () => '  advisory lock of the label');
timeStage(
  TicketProviderGateway.prototype,
  'call',
  (args) => `  provider call ${String(args[1])}`,
  (error) => {
    const kind = providerErrorKind(error);
    const problem = (error as { details?: { problem?: unknown } }).details?.problem;
    const key = `${kind ?? 'not a provider error'}: ${String(problem ?? error)}`;
    providerErrors.set(key, (providerErrors.get(key) ?? 0) + 1);
  },
);
timeStage(InstalledPluginsService.prototype, 'ensureLoaded', () => '    ensureLoaded');
timeStage(PluginRunnerClient.prototype, 'invoke', () => '    runner invoke');
timeStage(HostCallResponder.prototype, 'answer', () => '      host call answered by the service');

const STAGE_ORDER = [
  'per finding',
  '  advisory lock',
  '  provider call find-task-by-label',
  '  provider call create-task',
  '    ensureLoaded',
  '    runner invoke',
  '      host call',
];
function printStages(): void {
  console.log('  wall time per call in this process: calls, mean, p50, p95, max:');
  const rank = (name: string) => STAGE_ORDER.findIndex((prefix) => name.startsWith(prefix));
  for (const [name, st] of [...stages].sort((a, b) => rank(a[0]) - rank(b[0]))) {
    const sorted = [...st].sort((a, b) => a - b);
    const mean = st.reduce((a, b) => a + b, 0) / st.length;
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    console.log(
      `    ${name}: ${st.length}, ${mean.toFixed(1)} ms, ${at(0.5).toFixed(1)} ms, ${at(0.95).toFixed(1)} ms, ${sorted.at(-1)!.toFixed(1)} ms`,
    );
  }
  if (providerErrors.size > 0) {
    console.log('  provider errors (kind: problem, count):');
    for (const [key, n] of providerErrors) console.log(`    ${key}: ${n}`);
  }
  stages.clear();
  providerErrors.clear();
}

/**
 * Open findings of one product, set-based (severities and scanners spread; statuses of the
 * backfill's default selection, the open group).
 */
const SEED_SQL = `
INSERT INTO findings (product_id, project_id, identity_hash, identity_kind, rule_id, title,
  description, severity, status, host, file_path, scanner, cwe, tags, sla_days, first_seen_at,
  last_seen_at, created_at)
SELECT $1, $2, md5($4 || g::text) || md5(g::text || $4), 'code',
  'rule-' || (g % 400),
  'Finding ' || g || ' ' || (ARRAY['SQL injection','XSS','Weak cipher','Outdated dependency','Hardcoded secret'])[1 + g % 5],
  'Seeded description of finding ' || g,
  (ARRAY['CRITICAL','HIGH','MEDIUM','MEDIUM','LOW','LOW','INFO'])[1 + (g * 7919) % 7],
  (ARRAY['new','new','new','confirmed','in_progress'])[1 + (g * 104729) % 5],
  'app-' || (g % 97) || '.prod.example.com',
  'src/module-' || (g % 200) || '/file-' || (g % 37) || '.ts',
  (ARRAY['semgrep','trivy','zap','sonarqube','gitleaks'])[1 + (g * 31) % 5],
  ARRAY['CWE-' || (g % 120)],
  '{}'::text[], 30, now(), now(), now()
FROM generate_series(1::bigint, $3::bigint) AS g`;

interface BackfillRow {
  state: string;
  total: number;
  done: number;
  linked: number;
  created: number;
  skipped: number;
  failed: number;
  started_at: Date;
  finished_at: Date | null;
}

interface RunFigures {
  name: string;
  limit: number | null;
  seconds: number;
  findingsPerSecond: number;
  answered: number;
  limited: number;
  answeredPerSecond: number;
  peakPerSecond: number;
  searches: number;
  creates: number;
  /** Creates answered 429 (sent minus issues made); the other 429s were searches. */
  createsLimited: number;
  other: number;
  row: BackfillRow;
  withoutTicket: number;
  issuesAtTracker: number;
  cpu: { own: number; runner: number };
}

interface ReferenceFigures {
  limit: number | null;
  seconds: number;
  created: number;
  limited: number;
  perSecond: number;
}

/** The tracker emptied and its counters at 0 (a run starts with no issue and a full bucket). */
function resetTracker(tracker: JiraStandIn, limit: number | null): void {
  tracker.issues.clear();
  tracker.requests.length = 0;
  tracker.counters.answered = 0;
  tracker.counters.limited = 0;
  tracker.limit = limit === null ? undefined : { perSecond: limit };
}

/** One plain client: `count` create-issue requests, one at a time, honouring `Retry-After`. */
async function reference(
  tracker: JiraStandIn,
  count: number,
  limit: number | null,
): Promise<ReferenceFigures> {
  resetTracker(tracker, limit);
  const started = performance.now();
  let limited = 0;
  for (let i = 0; i < count; i += 1) {
    const body = JSON.stringify({
      fields: {
        project: { key: PROJECT_KEY },
        issuetype: { name: 'Task' },
        summary: `[HIGH] Reference finding ${i}`,
        description: `Severity: HIGH\nRule: rule-${i % 400}\nLabel: findsvc-ref-${i}`,
        labels: [`findsvc-ref-${i}`],
      },
    });
    for (;;) {
      const res = await fetch(`${tracker.url}/rest/api/2/issue`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      if (res.status === 201) break;
      if (res.status !== 429) throw new Error(`reference create: HTTP ${res.status}`);
      limited += 1;
      await sleep(Number(res.headers.get('retry-after') ?? '1') * 1000);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    limit,
    seconds,
    created: tracker.issues.size,
    limited,
    perSecond: tracker.issues.size / seconds,
  };
}

async function main(): Promise<void> {
  const loadAtStart = load();
  console.log(
    `machine: ${cpus()[0]?.model ?? '?'} x${availableParallelism()}, ${Math.round(totalmem() / 2 ** 30)} GiB; ` +
      `nproc ${availableParallelism()}; /proc/loadavg at start: ${loadAtStart}`,
  );
  console.log(`findings ${FINDINGS}; R = ${RATE} requests/s; runs ${RUNS.join(', ')}`);
  const publisher = publisherKey();
  const plugin = await buildCatalogPlugin('jira-provider', publisher.privateKey);
  const tracker = await startJiraStandIn({
    email: EMAIL,
    apiToken: API_TOKEN,
    clientId: 'unused-client',
    clientSecret: 'unused-secret',
    projects: [{ id: '10100', key: PROJECT_KEY, name: 'Security' }],
  });
  const { runner, grpcPort } = await startRunnerProcess();
  const stack = await startIngestion({
    env: {
      PLUGIN_RUNNER_URL: `127.0.0.1:${grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
      // The first call loads (compiles) the 12 MB component in the runner.
      PLUGIN_RUNNER_CLIENT_TIMEOUT_MS: '240000',
    },
  });
  const { t } = stack;
  // An access token lives 15 minutes and a run takes longer: sign in again for each request set.
  let admin = stack.admin;
  const db = t.app.get(DataSource);
  let worker: Awaited<ReturnType<typeof startWorker>> | undefined;
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  try {
    // The installation permits the tracker's host (its base_url); the credentials are the project's.
    const pluginId = await seedInstalledPlugin(t, plugin, {
      publicKeyPem: publisher.publicKeyPem,
      settings: { base_url: tracker.url, auth_method: 'basic', email: EMAIL },
    });

    /** A fresh project with the provider configured and `count` open findings. */
    const project = async (count: number, salt: string) => {
      admin = await loginAdmin(t);
      const product = await freshProduct(t, admin);
      const put = await api(
        'PUT',
        `/api/v1/projects/${product.project_id}/ticket-provider/config`,
        {
          plugin_id: pluginId,
          settings: { base_url: tracker.url, project_key: PROJECT_KEY, api_token: API_TOKEN },
          default_target: PROJECT_KEY,
        },
      );
      if (put.status !== 200) throw new Error(`ticket provider config: ${JSON.stringify(put)}`);
      await db.query(SEED_SQL, [product.id, product.project_id, count, salt]);
      return product.project_id;
    };

    /** Starts a create backfill and polls its row (and the tracker's counters) until it ends. */
    const backfill = async (projectId: string) => {
      const started = await api('POST', `/api/v1/projects/${projectId}/tickets/backfill`, {
        mode: 'create',
      });
      if (started.status !== 202) throw new Error(`backfill: ${JSON.stringify(started)}`);
      const jobId = (started.body['data'] as { job_id: string }).job_id;
      const samples: { at: number; answered: number }[] = [];
      const deadline = Date.now() + 4 * 3600_000;
      let lastDone = -1;
      for (;;) {
        samples.push({ at: performance.now(), answered: tracker.counters.answered });
        const [row] = (await db.query(`SELECT * FROM ticket_backfills WHERE id = $1`, [
          jobId,
        ])) as BackfillRow[];
        if (row && row.state !== 'running') return { jobId, row, samples };
        if (row && row.done !== lastDone && row.done % 1000 < 100) {
          lastDone = row.done;
          console.log(
            `  ${row.done}/${row.total} walked, ${tracker.counters.answered} answered, ` +
              `${tracker.counters.limited} limited; load ${load()}`,
          );
        }
        if (Date.now() > deadline) throw new Error(`backfill ${jobId} still running`);
        await sleep(250);
      }
    };

    worker = await startWorker(t, stack.env.vars);
    const walker = worker.get(TicketBackfillRunner);
    if (CONCURRENCY !== undefined) walker.concurrency = CONCURRENCY;
    console.log(`walk: ${walker.concurrency} findings at once`);

    // Warm-up: the runner loads the component, the worker's connections open.
    resetTracker(tracker, null);
    const warm = await backfill(await project(WARM_UP_FINDINGS, `warm-${Date.now()}`));
    console.log(
      `warm-up: ${warm.row.created} created of ${WARM_UP_FINDINGS} in ` +
        `${((+(warm.row.finished_at as Date) - +warm.row.started_at) / 1000).toFixed(1)} s`,
    );
    stages.clear();
    providerErrors.clear();

    const runs: RunFigures[] = [];
    const references: ReferenceFigures[] = [];
    const runnerPid = runner.child.pid as number;
    for (const name of RUNS) {
      const limit = name === 'limited' ? RATE : null;
      const projectId = await project(FINDINGS, `${name}-${Date.now()}`);
      resetTracker(tracker, limit);
      console.log(
        `run ${name} (limit ${limit ?? 'off'}): ${FINDINGS} findings seeded; load ${load()}`,
      );
      const cpu0 = { own: ownCpuSeconds(), runner: treeCpuSeconds(runnerPid) };
      const { row, samples } = await backfill(projectId);
      const cpu1 = { own: ownCpuSeconds(), runner: treeCpuSeconds(runnerPid) };
      const seconds = (+(row.finished_at as Date) - +row.started_at) / 1000;
      let peak = 0;
      for (let i = 0, j = 0; i < samples.length; i += 1) {
        while (samples[i]!.at - samples[j]!.at > 1000) j += 1;
        const span = (samples[i]!.at - samples[j]!.at) / 1000;
        if (span >= 0.75)
          peak = Math.max(peak, (samples[i]!.answered - samples[j]!.answered) / span);
      }
      const paths = tracker.requests.map((r) => `${r.method} ${r.url.pathname}`);
      const searches = paths.filter((p) => p === 'GET /rest/api/2/search').length;
      const creates = paths.filter((p) => p === 'POST /rest/api/2/issue').length;
      const [left] = (await db.query(
        `SELECT count(*)::int AS n FROM findings f
          WHERE f.project_id = $1
            AND NOT EXISTS (SELECT 1 FROM finding_tickets ft WHERE ft.finding_id = f.id)`,
        [projectId],
      )) as { n: number }[];
      const figures: RunFigures = {
        name,
        limit,
        seconds,
        findingsPerSecond: row.done / seconds,
        answered: tracker.counters.answered,
        limited: tracker.counters.limited,
        answeredPerSecond: tracker.counters.answered / seconds,
        peakPerSecond: peak,
        searches,
        creates,
        createsLimited: creates - tracker.issues.size,
        other: paths.length - searches - creates,
        row,
        withoutTicket: left!.n,
        issuesAtTracker: tracker.issues.size,
        cpu: { own: cpu1.own - cpu0.own, runner: cpu1.runner - cpu0.runner },
      };
      runs.push(figures);
      console.log(
        `run ${name}: ${row.state} in ${seconds.toFixed(1)} s; ${figures.findingsPerSecond.toFixed(1)} findings/s; ` +
          `tracker answered ${figures.answered} (${figures.answeredPerSecond.toFixed(1)}/s, peak ${peak.toFixed(0)} in a second), ` +
          `limited ${figures.limited} (429: ${figures.limited - figures.createsLimited} searches, ${figures.createsLimited} creates); ` +
          `requests: ${searches} searches, ${creates} creates, ${figures.other} other; ` +
          `row: total ${row.total}, done ${row.done}, created ${row.created}, linked ${row.linked}, ` +
          `skipped ${row.skipped}, failed ${row.failed}; findings without a ticket ${figures.withoutTicket}; ` +
          `issues at the tracker ${figures.issuesAtTracker}; CPU s: bench process ${figures.cpu.own.toFixed(1)}, ` +
          `runner ${figures.cpu.runner.toFixed(1)}; load ${load()}`,
      );
      printStages();
      const ref = await reference(tracker, FINDINGS, limit);
      references.push(ref);
      console.log(
        `reference ${name}: ${ref.created} creates in ${ref.seconds.toFixed(1)} s, ` +
          `${ref.perSecond.toFixed(1)}/s, ${ref.limited} x 429 (waited Retry-After); load ${load()}`,
      );
    }

    console.log(`\n${FINDINGS} findings, backfill mode=create, Jira stand-in (REST v2, loopback):`);
    for (const [i, run] of runs.entries()) {
      const ref = references[i]!;
      const r = run.row;
      console.log(
        `  ${run.name} (R = ${run.limit ?? 'off'}): ${run.seconds.toFixed(1)} s, ${run.findingsPerSecond.toFixed(1)} findings/s, ` +
          `${run.answeredPerSecond.toFixed(1)} answered requests/s${run.limit ? ` (${((100 * run.answeredPerSecond) / run.limit).toFixed(0)} % of R)` : ''}, ` +
          `peak ${run.peakPerSecond.toFixed(0)}/s, 429s ${run.limited}; ` +
          `created ${r.created} / linked ${r.linked} / skipped ${r.skipped} / failed ${r.failed}; ` +
          `without a ticket ${run.withoutTicket}\n` +
          `    reference (one sequential client, ${FINDINGS} creates, limit ${ref.limit ?? 'off'}): ${ref.seconds.toFixed(1)} s, ` +
          `${ref.perSecond.toFixed(1)} requests/s, 429s ${ref.limited}; ` +
          `ratio backfill/reference (answered requests/s): ${(run.answeredPerSecond / ref.perSecond).toFixed(3)}`,
      );
    }
    console.log(`/proc/loadavg at start: ${loadAtStart}; at end: ${load()}`);
  } finally {
    await worker?.close();
    await stack.close();
    await runner.stop();
    await tracker.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
