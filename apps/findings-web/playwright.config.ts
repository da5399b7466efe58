import { defineConfig } from '@playwright/test';

/**
 * Playwright in Debian's Chromium (its own browser download cannot work here), headless,
 * against the real findings API + worker and the built UI started by e2e/global-setup.ts.
 * Run by tools/test.sh after Jest: `npx playwright test -c apps/findings-web/playwright.config.ts`.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.pw.ts',
  outputDir: 'test-output/results',
  globalSetup: './e2e/global-setup.ts',
  // One browser at a time on the shared 2-core machine; the scenarios share one stack.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-output/results.json' }]],
  use: {
    headless: true,
    screenshot: 'on',
    trace: 'retain-on-failure',
    locale: 'en-GB',
    viewport: { width: 1400, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    },
  },
});
