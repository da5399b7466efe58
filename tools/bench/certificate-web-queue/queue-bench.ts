/**
 * Certificate web UI requests-queue benchmark (not part of `npm test`), in Debian's Chromium
 * (issue 32: "with 50 000 pending requests, first rows in <= 1 s; a bulk approve of 5 000
 * selected rows completes with a progress indicator"). From the repository root:
 *
 *   bash tools/stack/stack.sh up && eval "$(bash tools/stack/stack.sh env)"
 *   npx nx run certificate-web:build   # the production bundle it serves
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/certificate-web-queue/queue-bench.ts
 *
 * A fresh database on the stack's PostgreSQL; the certificate service in a process of its own
 * (tools/bench/fleet/server-process.ts: migrations at boot, 100 000 licence slots); one real
 * enrollment as the template, then BENCH_PENDING (50 000) pending requests of as many devices
 * seeded set-based (seed-queue.ts): BENCH_SUBSET (5 000) `wifi` ones (the UI's filtered
 * subset), as many `vpn` ones (the API reference's) and the rest `k8s`. The built UI is served
 * by apps/certificate-web/server/serve.mjs (API proxied); headless Chromium (playwright-core,
 * the e2e flags) signs in as a `cert-approver` and measures, each beside the API's own time for
 * the same calls made directly with fetch in the same run:
 *   1. first rows: from `goto /requests` (full load: bundle, session refresh, list) until the
 *      first row is visible, BENCH_ROUNDS times (default 7, after one warm-up) — beside
 *      `GET /api/v1/requests?status=pending&page=1&limit=100`;
 *   2. "Select all N matching" on `?purpose=wifi`: from the click until "5000 selected" —
 *      beside the same list pages (`status=pending&purpose=...&limit=500`, pages 1..10);
 *   3. "Approve selected": from the click until the results summary, with the progress
 *      indicator's values recorded in the page (it must advance) — beside the same chunks of
 *      500 `POST /api/v1/requests/approve` over the `vpn` subset's ids.
 * Env: CHROMIUM_PATH (/usr/bin/chromium), BENCH_PENDING, BENCH_SUBSET, BENCH_ROUNDS,
 * BENCH_KEEP_DB=1.
 */
import 'reflect-metadata';
import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { chromium, type Page } from 'playwright-core';
import { toPem } from '@platform/pki';
import { ecKeyPair, makeCsr } from '@platform/pki/testing';
import { adminQuery, stackUrl } from '../support/stack-db';
import { API_PURPOSE, seedPendingQueue, UI_PURPOSE } from './seed-queue';

const PENDING = Number(process.env['BENCH_PENDING'] ?? 50_000);
const SUBSET = Number(process.env['BENCH_SUBSET'] ?? 5_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const CHUNK = 500;
const ROOT = join(__dirname, '../../..');
const DIST = join(ROOT, 'dist/apps/certificate-web');
const ADMIN = { email: 'bench@certsvc.local', password: 'bench-password-1234' };
const APPROVER = { email: 'approver@certsvc.local', password: 'Bench-approver-pw-1234' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (v: number) => `${v.toFixed(0)} ms`;

async function startServer(databaseUrl: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(ROOT, 'tools/bench/fleet/server-process.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        BENCH_DATABASE_URL: databaseUrl,
        BENCH_MAX_DEVICES: '1000000',
        BENCH_ADMIN_EMAIL: ADMIN.email,
        BENCH_ADMIN_PASSWORD: ADMIN.password,
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('{"port"')) resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function call<T>(base: string, method: string, path: string, token = '', body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

type Page500 = { items: { id: string; status: string }[]; total: number };

/** The list pages the UI's "select all matching" reads, directly. */
async function listPages(base: string, token: string, purpose: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const answer = await call<Page500>(
      base,
      'GET',
      `/api/v1/requests?status=pending&purpose=${purpose}&page=${page}&limit=${CHUNK}`,
      token,
    );
    ids.push(...answer.items.map((i) => i.id));
    if (answer.items.length < CHUNK || page * CHUNK >= answer.total) return ids;
  }
}

async function signIn(page: Page, webUrl: string): Promise<void> {
  await page.goto(`${webUrl}/login`);
  await page.getByLabel('E-mail').fill(APPROVER.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(APPROVER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('current-user').waitFor();
}

/**
 * In every page: when the first queue row entered the DOM (a MutationObserver, in-page time,
 * not Playwright's polling) and the main thread's time in long tasks (> 50 ms) — the client's
 * own work.
 */
const FIRST_ROW_PROBE = `(() => {
  globalThis.__longTasks = 0;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) globalThis.__longTasks += e.duration;
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const watch = new MutationObserver(() => {
    if (document.querySelector('[data-testid="request-row"]')) {
      globalThis.__firstRowAt = performance.now();
      watch.disconnect();
    }
  });
  document.addEventListener('DOMContentLoaded', () =>
    watch.observe(document.body, { subtree: true, childList: true }));
})()`;

/**
 * When the page's own requests ended (ms after navigation start, the browser's resource timing):
 * the HTML, the last script, the session refresh, the list call — where the first rows' time
 * goes (the page, the session, the list route).
 */
async function loadPhases(page: Page): Promise<Record<string, number>> {
  return page.evaluate(`(() => {
    const out = {};
    const nav = performance.getEntriesByType('navigation')[0];
    if (nav) out.html = nav.responseEnd;
    if (globalThis.__firstRowAt) out['row drawn'] = globalThis.__firstRowAt;
    out['main thread busy (long tasks)'] = globalThis.__longTasks ?? 0;
    for (const e of performance.getEntriesByType('resource')) {
      const path = new URL(e.name).pathname;
      const name = path.endsWith('.js') ? 'scripts' : path.startsWith('/api/v1/requests') ? 'list'
        : path === '/api/v1/auth/refresh' ? 'refresh' : path.startsWith('/api/') ? path : '';
      if (!name) continue;
      out[name] = Math.max(out[name] ?? 0, e.responseEnd);
      if (name === 'list') out['list started'] = e.startTime;
    }
    return out;
  })()`);
}

/** Records every text the progress indicator shows, with the time, from inside the page. */
async function recordProgress(page: Page): Promise<void> {
  // A string: this file is type-checked without the DOM's types.
  await page.evaluate(`(() => {
    const seen = [];
    globalThis.__progress = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="bulk-progress"]')?.textContent ?? '';
      if (text && seen[seen.length - 1]?.text !== text) seen.push({ at: performance.now(), text });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
}

async function main(): Promise<void> {
  if (!existsSync(join(DIST, 'index.html')))
    throw new Error('build the UI first: npx nx run certificate-web:build');
  const dbName = `bench_cweb_queue_${Date.now()}`;
  await adminQuery(`CREATE DATABASE ${dbName}`);
  const url = new URL(stackUrl());
  url.pathname = `/${dbName}`;
  let server: ChildProcess | undefined;
  let web: ChildProcess | undefined;
  const db = new Client({ connectionString: url.toString() });
  try {
    const started = await startServer(url.toString());
    server = started.child;
    const base = started.base;
    await db.connect();
    const login = async (who: { email: string; password: string }) =>
      (await call<{ access_token: string }>(base, 'POST', '/api/v1/auth/local/login', '', who))
        .access_token;
    const adminToken = await login(ADMIN);
    await call(base, 'POST', '/api/v1/users/local', adminToken, {
      ...APPROVER,
      roles: ['cert-approver'],
    });
    const token = await login(APPROVER);

    // The template: one real enrollment (its CSR and secrets), copied set-based.
    const { nonce } = await call<{ nonce: string }>(base, 'POST', '/api/v1/enroll/nonce');
    const enrolled = await call<{ request_id: string }>(base, 'POST', '/api/v1/enroll', '', {
      csr: toPem(
        'CERTIFICATE REQUEST',
        makeCsr({ keyPair: ecKeyPair(), commonName: 'QB-TEMPLATE' }),
      ),
      serial: 'QB-TEMPLATE',
      nonce,
      agent_version: '2.4.1',
      platform: 'windows',
      hostname: 'qb-template',
    });
    const seeded = await timed(() => seedPendingQueue(db, enrolled.request_id, PENDING, SUBSET));
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT })
      .toString()
      .trim();
    console.log(
      `commit ${commit}; node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' ',
        )}; seeded ${PENDING} pending requests (${SUBSET} ${UI_PURPOSE}, ${SUBSET} ${API_PURPOSE}) in ${(seeded.ms / 1000).toFixed(1)} s`,
    );

    const webPort = 18000 + Math.floor(Math.random() * 1000);
    web = spawn(process.execPath, ['apps/certificate-web/server/serve.mjs'], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'],
        CERTIFICATE_WEB_PORT: String(webPort),
        CERTSVC_API_URL: base,
        CERTIFICATE_WEB_ROOT: DIST,
      },
      stdio: 'ignore',
    });
    const webUrl = `http://127.0.0.1:${webPort}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${webUrl}/healthz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-gpu',
        '--disable-software-rasterizer',
      ],
    });
    try {
      const page = await browser.newPage({
        viewport: { width: 1400, height: 900 },
        locale: 'en-GB',
      });
      await page.addInitScript(FIRST_ROW_PROBE);
      await signIn(page, webUrl);

      // 1. First rows of the queue (all 50 000 pending) after a full page load.
      const uiFirst: number[] = [];
      const apiFirst: number[] = [];
      const phases: Record<string, number[]> = {};
      for (let i = 0; i < ROUNDS + 1; i++) {
        const ui = await timed(async () => {
          await page.goto(`${webUrl}/requests`, { waitUntil: 'commit' });
          await page.getByTestId('request-row').first().waitFor();
        });
        const api = await timed(() =>
          call(base, 'GET', '/api/v1/requests?status=pending&page=1&limit=100', token),
        );
        if (i > 0) {
          uiFirst.push(ui.ms);
          apiFirst.push(api.ms);
          for (const [name, at] of Object.entries(await loadPhases(page))) {
            (phases[name] ??= []).push(at);
          }
        }
      }
      const shown = await page.getByTestId('requests-total').textContent();
      console.log(
        `   where the time goes (median ms after navigation start, as the page's own timing says): ${Object.entries(
          phases,
        )
          .map(([name, values]) => `${name} ${median(values).toFixed(0)}`)
          .join(', ')}`,
      );
      const first = median(uiFirst);
      console.log(
        `1. first rows (${shown}): UI ${ms(first)} median of ${ROUNDS} (min ${ms(Math.min(...uiFirst))}, max ${ms(Math.max(...uiFirst))}), API list call ${ms(median(apiFirst))}; ratio ${(first / median(apiFirst)).toFixed(1)}; target <= 1000 ms: ${first <= 1000 ? 'met' : 'NOT met'}`,
      );

      // 2. Select all matching the filter.
      await page.goto(`${webUrl}/requests?purpose=${UI_PURPOSE}`);
      await page.getByTestId('request-row').first().waitFor();
      const selectAll = await timed(async () => {
        await page.getByRole('button', { name: `Select all ${SUBSET} matching` }).click();
        await page
          .getByTestId('requests-selected')
          .filter({ hasText: `${SUBSET} selected` })
          .waitFor({ timeout: 120_000 });
      });
      const apiSelect = await timed(() => listPages(base, token, API_PURPOSE));
      if (apiSelect.value.length !== SUBSET)
        throw new Error(`API pages: ${apiSelect.value.length}`);
      console.log(
        `2. select all ${SUBSET} matching: UI ${ms(selectAll.ms)}, API ${Math.ceil(SUBSET / CHUNK)} list pages of ${CHUNK} ${ms(apiSelect.ms)}; ratio ${(selectAll.ms / apiSelect.ms).toFixed(2)}`,
      );

      // 3. Bulk approve with the progress indicator.
      await recordProgress(page);
      const approve = await timed(async () => {
        await page.getByRole('button', { name: 'Approve selected' }).click();
        const summary = page.getByTestId('bulk-summary');
        const conflicts = page.getByRole('button', { name: 'Approve anyway' });
        await summary.or(conflicts).first().waitFor({ timeout: 600_000 });
        if (await conflicts.isVisible()) await conflicts.click();
        await summary.waitFor({ timeout: 600_000 });
      });
      const summary = await page.getByTestId('bulk-summary').textContent();
      const progress = await page.evaluate(
        () => (globalThis as unknown as { __progress: { text: string }[] }).__progress,
      );
      const apiApprove: number[] = [];
      let issued = 0;
      for (let start = 0; start < apiSelect.value.length; start += CHUNK) {
        const chunk = apiSelect.value.slice(start, start + CHUNK);
        const answer = await timed(() =>
          call<{ results: { status: string }[] }>(base, 'POST', '/api/v1/requests/approve', token, {
            request_ids: chunk,
          }),
        );
        apiApprove.push(answer.ms);
        issued += answer.value.results.filter((r) => r.status === 'issued').length;
      }
      const apiTotal = apiApprove.reduce((a, b) => a + b, 0);
      const advanced = progress.length >= 3;
      console.log(
        `3. bulk approve ${SUBSET}: UI ${ms(approve.ms)} (${summary}; progress shown ${progress.length} values: ${progress
          .map((p) => p.text.replace(/ processed.*/, ''))
          .join(
            ', ',
          )} — ${advanced ? 'advanced' : 'DID NOT advance'}), API ${apiApprove.length} chunks of ${CHUNK} ${ms(apiTotal)} (median chunk ${ms(median(apiApprove))}, ${issued} issued); ratio ${(approve.ms / apiTotal).toFixed(2)}; load ${loadavg()[0].toFixed(1)}`,
      );
      if (!advanced) process.exitCode = 1;
    } finally {
      await browser.close();
    }
  } finally {
    web?.kill();
    await db.end().catch(() => undefined);
    if (server) {
      server.stdin?.end();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      server.kill();
    }
    if (process.env['BENCH_KEEP_DB'] !== '1') {
      await adminQuery(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
