import { defineConfig } from '@playwright/test';
import { join } from 'node:path';

/**
 * Playwright in Debian's Chromium (its own browser download cannot work here), headless,
 * against the real findings API + worker and the built UI started by e2e/global-setup.ts.
 * Run by tools/test.sh after Jest: `npx playwright test -c apps/findings-web/playwright.config.ts`.
 *
 * Every run writes into its own directory (results, traces, the JSON report, screenshots):
 * FINDINGS_WEB_TEST_OUTPUT, else `test-output/run-<time>-<pid>`, so runs in one work tree at the
 * same time do not remove each other's files. The workers inherit the choice through the
 * environment (they load this file again).
 */
const output = (process.env.FINDINGS_WEB_TEST_OUTPUT ??= join(
  __dirname,
  'test-output',
  `run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
));

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.pw.ts',
  outputDir: join(output, 'results'),
  globalSetup: './e2e/global-setup.ts',
  // FINDINGS_WEB_WORKERS browsers at once (default 1), each against its own platform
  // (e2e/global-setup.ts starts one per worker); a file's tests stay in order in one worker.
  // On the 2-core machine two workers took as long as one (10.3 vs 10.0 min for the 33
  // scenarios, measured with the GPU process): Chromium's renderers keep both cores busy
  // already. A machine with more cores sets it higher.
  workers: Number(process.env.FINDINGS_WEB_WORKERS ?? 1),
  fullyParallel: false,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: join(output, 'results.json') }]],
  use: {
    headless: true,
    // A failed test keeps its screenshot and a trace with DOM snapshots, network and console.
    // Not the trace's screencast nor a screenshot of every passing test: they cost a quarter of
    // the browser tests' CPU (measured on three files: 137 → 101 s). The scenarios' own
    // screenshots (support/fixtures.ts, `screenshot`) are taken as before.
    screenshot: 'only-on-failure',
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    locale: 'en-GB',
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // No GPU process: without a GPU, Chromium emulates one in software (SwiftShader) for
      // compositing, and that process took a third of the browser tests' CPU. Software
      // compositing draws the same pages (measured on triage, sla and query: 80 -> 55 s of CPU,
      // 84 -> 66 s of wall time, screenshots unchanged).
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-gpu',
        '--disable-software-rasterizer',
      ],
    },
  },
});
