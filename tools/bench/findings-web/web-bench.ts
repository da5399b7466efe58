/**
 * Findings web UI benchmark (not part of `npm test`), in Debian's Chromium. From the repository root:
 *
 *   npx nx run findings-web:build   # the production bundle it measures and serves
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/findings-web/web-bench.ts
 *
 * Starts the project's PostgreSQL/Redis when STACK_PG_URL is unset, creates a scratch database,
 * boots the real findings API in this process (migrations included), creates 2 projects x 5
 * products, loads BENCH_FINDINGS (default 1 000 000) findings set-based (the query bench's data
 * shape), serves the built UI with apps/findings-web/server/serve.mjs (API proxied), signs in
 * in headless Chromium and measures, BENCH_ROUNDS times each (default 15, after 2 warm-ups):
 *   1. first rows after navigation: from the click on "Findings" (in-app navigation from another
 *      page, cache cleared) and from a full page load of /findings (bundle, session refresh,
 *      list) until the first grid row is visible;
 *   2. a query-mode search: from Enter in the query field until the rows of the new query are
 *      shown — `severity:critical|high file_path:src/module-N/` with another N each round (no
 *      cache answers; a substring term, slow at the API), and the query bench's indexed
 *      `severity:critical|high host:*prod*` on a freshly loaded page each round;
 * each beside the API's own time for the same request (the same URL, fetched from this process
 * right after: the in-run reference), and 3. the production bundle's initial JavaScript
 * (index.html's script and modulepreload chunks) gzipped.
 * Env: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_KEEP_DB=1, BENCH_QUERIES=0 (first rows only),
 * BENCH_TRACE=<file.json> (a performance trace of one more full load, for DevTools). Below about 100 000 findings
 * the narrow query rounds (~1/700 of the rows each) can match nothing and the bench stops
 * waiting for rows (2 000 does; 100 000 runs).
 */
import 'reflect-metadata';
import { chromium, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import { SEED_FINDINGS_SQL } from '../support/seed-findings';
import {
  BENCH_ADMIN,
  findingsBenchVars,
  listenOnLoopback,
  localLogin,
  scratchDatabase,
} from '../support/findings-bench-app';

const TOTAL = Number(process.env['BENCH_FINDINGS'] ?? 1_000_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
/** BENCH_QUERIES=0 measures the first rows only (the query rounds are skipped). */
const QUERIES = process.env['BENCH_QUERIES'] !== '0';
const ROOT = join(__dirname, '../../..');
const DIST = join(ROOT, 'dist/apps/findings-web');

function stats(values: number[]): string {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return `p50 ${at(50).toFixed(0)} ms, p95 ${at(95).toFixed(0)} ms, max ${s[s.length - 1].toFixed(0)} ms`;
}

/** index.html's initial JavaScript (entry script + modulepreloads), raw and gzipped. */
function initialBundle(): { files: string[]; raw: number; gzip: number } {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(join(DIST, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, raw, gzip };
}

async function apiTime(apiUrl: string, token: string, path: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
  await res.json();
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return performance.now() - started;
}

async function firstRows(page: Page): Promise<void> {
  await page.getByTestId('finding-row').first().waitFor({ state: 'visible', timeout: 30_000 });
}

/**
 * Records in the page when the first grid row is drawn: a MutationObserver sees the row added,
 * and the next animation frame (the one that paints it) stamps the time and reports it through
 * a binding. Nothing polls the page meanwhile: Playwright's waitFor polls at 0, 20, 70, 170,
 * 270, 770, 1 270 ms…, so the time it returns is the next poll after the row (up to 500 ms
 * late), and each poll runs script in the page being measured. `__armFirstRow()` re-arms it
 * before an in-app navigation; a click stamps `__clickAt`.
 */
const FIRST_ROW_PROBE = `(() => {
  const w = window;
  w.__armFirstRow = () => {
    w.__firstRowAt = undefined;
    const seen = () => {
      if (w.__firstRowAt !== undefined || !document.querySelector('[data-testid="finding-row"]')) return false;
      requestAnimationFrame(() => {
        if (w.__firstRowAt !== undefined) return;
        w.__firstRowAt = performance.now();
        w.__rowsDrawn(w.__firstRowAt);
      });
      return true;
    };
    const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
    observer.observe(document, { childList: true, subtree: true });
  };
  w.__armFirstRow();
  document.addEventListener('click', () => { w.__clickAt = performance.now(); }, true);
})();`;

/** The page's reports of a drawn first row (ms from its navigation start), in order. */
class DrawnRows {
  private waiting: ((at: number) => void) | undefined;

  async install(page: Page): Promise<void> {
    await page.exposeBinding('__rowsDrawn', (_source, at: number) => {
      const done = this.waiting;
      this.waiting = undefined;
      done?.(at);
    });
    await page.addInitScript(FIRST_ROW_PROBE);
  }

  /** Resolves with the next report; `act` starts what draws the rows. */
  async next(act: () => Promise<unknown>): Promise<number> {
    const drawn = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no rows drawn within 30 s')), 30_000);
      this.waiting = (at) => {
        clearTimeout(timer);
        resolve(at);
      };
    });
    await act();
    return drawn;
  }
}

/** Where a full page load's time went, in ms from navigation start (the page's own timings). */
interface LoadPhases {
  bundle: number;
  refreshStart: number;
  refreshEnd: number;
  listStart: number;
  listEnd: number;
  rows: number;
}

async function loadPhases(page: Page): Promise<LoadPhases> {
  // globalThis: the page's clock (a bare `performance` would be this module's perf_hooks import).
  return page.evaluate(() => {
    // Resource timings (PerformanceResourceTiming, a DOM type this Node project does not load).
    const resources = globalThis.performance.getEntriesByType('resource') as unknown as {
      name: string;
      startTime: number;
      responseEnd: number;
    }[];
    const first = (part: string) => resources.find((r) => r.name.includes(part));
    const scripts = resources.filter((r) => r.name.includes('/assets/') && r.name.endsWith('.js'));
    const refresh = first('/api/v1/auth/token/refresh');
    const list = first('/api/v1/findings?');
    return {
      bundle: Math.max(0, ...scripts.map((r) => r.responseEnd)),
      refreshStart: refresh?.startTime ?? NaN,
      refreshEnd: refresh?.responseEnd ?? NaN,
      listStart: list?.startTime ?? NaN,
      listEnd: list?.responseEnd ?? NaN,
      rows: NaN,
    };
  });
}

function phaseLine(all: LoadPhases[]): string {
  const median = (pick: (p: LoadPhases) => number) => {
    const s = all.map(pick).sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)].toFixed(0);
  };
  return [
    `bundle loaded ${median((p) => p.bundle)}`,
    `refresh ${median((p) => p.refreshStart)}-${median((p) => p.refreshEnd)}`,
    `list ${median((p) => p.listStart)}-${median((p) => p.listEnd)}`,
    `rows ${median((p) => p.rows)}`,
  ].join(', ');
}

async function main(): Promise<void> {
  if (!existsSync(join(DIST, 'index.html')))
    throw new Error('build the UI first: npx nx run findings-web:build');
  const bundle = initialBundle();
  const db = await scratchDatabase('bench_web');
  const app = await createFindingsApp(loadFindingsConfig(findingsBenchVars(db), 'api'));
  let web: ReturnType<typeof spawn> | undefined;
  try {
    const apiUrl = await listenOnLoopback(app);
    const token = await localLogin(apiUrl);
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${apiUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return ((await res.json()) as { data: { id: string } }).data;
    };
    const products: { id: string; projectId: string }[] = [];
    for (let p = 0; p < 2; p++) {
      const project = await post('/api/v1/projects', { name: `bench-project-${p}` });
      for (let k = 0; k < 5; k++) {
        const product = await post(`/api/v1/projects/${project.id}/products`, {
          name: `bench-product-${k}`,
          scan_enabled: true,
        });
        products.push({ id: product.id, projectId: project.id });
      }
    }
    const ds = app.get(DataSource);
    const perProduct = Math.floor(TOTAL / products.length);
    const loadStarted = performance.now();
    for (const product of products)
      await ds.query(SEED_FINDINGS_SQL, [product.id, product.projectId, perProduct, product.id]);
    await ds.query('VACUUM ANALYZE findings');
    // The load's dirty pages written now, not by the checkpointer during the measured rounds.
    await ds.query('CHECKPOINT').catch(() => undefined);
    console.log(
      `loaded ${perProduct * products.length} findings in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );

    const webPort = 18000 + Math.floor(Math.random() * 1000);
    web = spawn(process.execPath, ['apps/findings-web/server/serve.mjs'], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'],
        FINDINGS_WEB_PORT: String(webPort),
        FINDINGS_API_URL: apiUrl,
        FINDINGS_WEB_ROOT: DIST,
      },
      stdio: 'ignore',
    });
    const webUrl = `http://127.0.0.1:${webPort}`;
    for (
      let i = 0;
      i < 100 &&
      !(await fetch(`${webUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    try {
      const page = await browser.newPage({
        viewport: { width: 1400, height: 900 },
        locale: 'en-GB',
      });
      const drawnRows = new DrawnRows();
      await drawnRows.install(page);
      await page.goto(`${webUrl}/login`);
      await page.getByLabel('Login (e-mail)').fill(BENCH_ADMIN.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(BENCH_ADMIN.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await firstRows(page);
      const listPath = '/api/v1/findings?sort=created_at&order=desc&limit=100';

      // 1a. In-app navigation: Projects -> Findings (the list query is not cached: new key each round via order toggle is not wanted, so reload the projects page first to empty the cache).
      const inApp: number[] = [];
      const fullLoad: number[] = [];
      const listApi: number[] = [];
      const phases: LoadPhases[] = [];
      for (let i = 0; i < ROUNDS + 2; i++) {
        await page.goto(`${webUrl}/projects`);
        await page.getByRole('heading', { name: 'Projects' }).waitFor();
        await page.evaluate(() => (globalThis as { __armFirstRow?: () => void }).__armFirstRow?.());
        const drawnInApp = await drawnRows.next(() =>
          page.getByRole('link', { name: 'Findings', exact: true }).click(),
        );
        const clickedAt = await page.evaluate(
          () => (globalThis as { __clickAt?: number }).__clickAt,
        );
        const browserMs = drawnInApp - (clickedAt ?? NaN);
        const loadMs = await drawnRows.next(() =>
          page.goto(`${webUrl}/findings`, { waitUntil: 'commit' }),
        );
        const phase = { ...(await loadPhases(page)), rows: loadMs };
        const apiMs = await apiTime(apiUrl, token, listPath);
        if (i >= 2) {
          inApp.push(browserMs);
          fullLoad.push(loadMs);
          listApi.push(apiMs);
          phases.push(phase);
        }
      }

      // A performance trace of one more full load (DevTools' Performance panel opens it).
      const traceTo = process.env['BENCH_TRACE'];
      if (traceTo) {
        await browser.startTracing(page, {
          path: traceTo,
          categories: [
            'devtools.timeline',
            'blink.user_timing',
            'loading',
            'disabled-by-default-devtools.timeline',
            'disabled-by-default-v8.cpu_profiler',
          ],
        });
        const drawn = await drawnRows.next(() =>
          page.goto(`${webUrl}/findings`, { waitUntil: 'commit' }),
        );
        await browser.stopTracing();
        console.log(`trace of a full load (rows at ${drawn.toFixed(0)} ms): ${traceTo}`);
      }

      // 2. Query mode: each round another query (no cache), Enter -> the new rows.
      await page.goto(`${webUrl}/findings?mode=query`);
      await firstRows(page);
      const query: number[] = [];
      const queryApi: number[] = [];
      for (let i = 0; i < (QUERIES ? ROUNDS + 2 : 0); i++) {
        // An odd module number: a src/ path (every 4th finding is under lib/), ~1/700 of the rows.
        const q = `severity:critical|high file_path:src/module-${11 + 2 * i}/`;
        const box = page.getByRole('textbox', { name: 'Query' });
        await box.fill(q);
        const answered = page.waitForResponse(
          (r) =>
            r.url().includes('/api/v1/findings?') && new URL(r.url()).searchParams.get('q') === q,
          { timeout: 30_000 },
        );
        const started = performance.now();
        await box.press('Enter');
        await answered;
        await firstRows(page);
        const browserMs = performance.now() - started;
        const apiMs = await apiTime(
          apiUrl,
          token,
          `/api/v1/findings?sort=created_at&order=desc&q=${encodeURIComponent(q)}&limit=100`,
        );
        if (i >= 2) {
          query.push(browserMs);
          queryApi.push(apiMs);
        }
      }

      // 3. The query bench's indexed query, the same each round on a freshly loaded page (empty cache).
      const fastQ = 'severity:critical|high host:*prod*';
      const fast: number[] = [];
      const fastApi: number[] = [];
      for (let i = 0; i < (QUERIES ? ROUNDS + 2 : 0); i++) {
        await page.goto(`${webUrl}/findings?mode=query`);
        await firstRows(page);
        const box = page.getByRole('textbox', { name: 'Query' });
        await box.fill(fastQ);
        const answered = page.waitForResponse(
          (r) =>
            r.url().includes('/api/v1/findings?') &&
            new URL(r.url()).searchParams.get('q') === fastQ,
          { timeout: 30_000 },
        );
        const started = performance.now();
        await box.press('Enter');
        await answered;
        await firstRows(page);
        const browserMs = performance.now() - started;
        const apiMs = await apiTime(
          apiUrl,
          token,
          `/api/v1/findings?sort=created_at&order=desc&q=${encodeURIComponent(fastQ)}&limit=100`,
        );
        if (i >= 2) {
          fast.push(browserMs);
          fastApi.push(apiMs);
        }
      }

      console.log(`\nfindings: ${perProduct * products.length}, rounds: ${ROUNDS}`);
      console.log(`first rows, in-app navigation (Projects -> Findings): ${stats(inApp)}`);
      console.log(`first rows, full page load of /findings:             ${stats(fullLoad)}`);
      console.log(`  in the page, p50 ms from navigation start: ${phaseLine(phases)}`);
      console.log(`  API alone, GET ${listPath}: ${stats(listApi)}`);
      if (QUERIES) {
        console.log(`query-mode search, Enter -> rows:                    ${stats(query)}`);
        console.log(`  API alone, the same q:                             ${stats(queryApi)}`);
        console.log(`query-mode search '${fastQ}', Enter -> rows: ${stats(fast)}`);
        console.log(`  API alone, the same q:                             ${stats(fastApi)}`);
      }
      console.log(
        `initial JS: ${bundle.files.join(', ')} — ${(bundle.raw / 1024).toFixed(1)} KB raw, ${(bundle.gzip / 1024).toFixed(1)} KB gzipped (target <= 300 KB)`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    web?.kill('SIGTERM');
    await app.close();
    await db.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
