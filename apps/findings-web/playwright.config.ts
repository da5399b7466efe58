import { defineConfig } from '@playwright/test';
import { basePlaywrightConfig, runOutputDir } from '@platform/web-ui/e2e';

/**
 * Playwright in Debian's Chromium (its own browser download cannot work here), headless,
 * against the real findings API + worker and the built UI started by e2e/global-setup.ts.
 * Run by tools/test.sh after Jest: `npx playwright test -c apps/findings-web/playwright.config.ts`.
 * The shared settings (browser, traces, reporters) are @platform/web-ui/e2e's.
 *
 * Every run writes into its own directory (results, traces, the JSON report, screenshots):
 * FINDINGS_WEB_TEST_OUTPUT, else `test-output/run-<time>-<pid>`, so runs in one work tree at the
 * same time do not remove each other's files. The workers inherit the choice through the
 * environment (they load this file again).
 */
const output = runOutputDir('FINDINGS_WEB_TEST_OUTPUT', __dirname);

// FINDINGS_WEB_WORKERS browsers at once (default 1), each against its own platform
// (e2e/global-setup.ts starts one per worker); a file's tests stay in order in one worker.
// On the 2-core machine two workers took as long as one (10.3 vs 10.0 min for the 33
// scenarios, measured with the GPU process): Chromium's renderers keep both cores busy
// already. A machine with more cores sets it higher.
export default defineConfig({
  ...basePlaywrightConfig(output, Number(process.env.FINDINGS_WEB_WORKERS ?? 1)),
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
});
