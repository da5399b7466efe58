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
 * Env: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_KEEP_DB=1. Below about 100 000 findings
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
      for (let i = 0; i < ROUNDS + 2; i++) {
        await page.goto(`${webUrl}/projects`);
        await page.getByRole('heading', { name: 'Projects' }).waitFor();
        const started = performance.now();
        await page.getByRole('link', { name: 'Findings', exact: true }).click();
        await firstRows(page);
        const browserMs = performance.now() - started;
        const t0 = performance.now();
        await page.goto(`${webUrl}/findings`);
        await firstRows(page);
        const loadMs = performance.now() - t0;
        const apiMs = await apiTime(apiUrl, token, listPath);
        if (i >= 2) {
          inApp.push(browserMs);
          fullLoad.push(loadMs);
          listApi.push(apiMs);
        }
      }

      // 2. Query mode: each round another query (no cache), Enter -> the new rows.
      await page.goto(`${webUrl}/findings?mode=query`);
      await firstRows(page);
      const query: number[] = [];
      const queryApi: number[] = [];
      for (let i = 0; i < ROUNDS + 2; i++) {
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
      for (let i = 0; i < ROUNDS + 2; i++) {
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
      console.log(`  API alone, GET ${listPath}: ${stats(listApi)}`);
      console.log(`query-mode search, Enter -> rows:                    ${stats(query)}`);
      console.log(`  API alone, the same q:                             ${stats(queryApi)}`);
      console.log(`query-mode search '${fastQ}', Enter -> rows: ${stats(fast)}`);
      console.log(`  API alone, the same q:                             ${stats(fastApi)}`);
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
