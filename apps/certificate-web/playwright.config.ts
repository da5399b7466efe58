import { defineConfig } from '@playwright/test';
import { basePlaywrightConfig, runOutputDir } from '@platform/web-ui/e2e';

/**
 * Playwright in Debian's Chromium, headless, against the real certificate service and the built
 * UI started by e2e/global-setup.ts (@platform/web-ui/e2e holds the settings both UIs share).
 * Run by tools/test.sh after Jest:
 * `npx playwright test -c apps/certificate-web/playwright.config.ts`.
 *
 * Every run writes into its own directory (results, traces, the JSON report, screenshots):
 * CERTIFICATE_WEB_TEST_OUTPUT, else `test-output/run-<time>-<pid>`.
 */
const output = runOutputDir('CERTIFICATE_WEB_TEST_OUTPUT', __dirname);

// CERTIFICATE_WEB_WORKERS browsers at once (default 1), each against its own service
// (e2e/global-setup.ts starts one per worker); one is as fast on the 2-core machine.
export default defineConfig({
  ...basePlaywrightConfig(output, Number(process.env.CERTIFICATE_WEB_WORKERS ?? 1)),
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
});
