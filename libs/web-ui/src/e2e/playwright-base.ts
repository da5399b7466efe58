import type { PlaywrightTestConfig } from '@playwright/test';
import { join } from 'node:path';

/**
 * This run's output directory: `process.env[variable]`, else `<appDir>/test-output/run-<time>-<pid>`,
 * written back to the variable so Playwright's workers (which load the config again) agree.
 * Runs in one work tree at the same time do not remove each other's files.
 */
export function runOutputDir(variable: string, appDir: string): string {
  return (process.env[variable] ??= join(
    appDir,
    'test-output',
    `run-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
  ));
}

/**
 * The settings both UIs' Playwright runs share: Debian's Chromium (CHROMIUM_PATH overrides;
 * Playwright's own download cannot work here), headless, one worker by default, a failed test
 * keeps its screenshot and a trace, results as JSON in `<output>/results.json` (tools/test.sh
 * adds its counts into the summary line).
 */
export function basePlaywrightConfig(output: string, workers: number): PlaywrightTestConfig {
  return {
    testMatch: '**/*.pw.ts',
    outputDir: join(output, 'results'),
    workers,
    fullyParallel: false,
    retries: 0,
    timeout: 90_000,
    expect: { timeout: 15_000 },
    reporter: [['list'], ['json', { outputFile: join(output, 'results.json') }]],
    use: {
      headless: true,
      // A failed test keeps its screenshot and a trace with its actions, network and console.
      // Not the trace's screencast nor a screenshot of every passing test: they cost a quarter
      // of the browser tests' CPU (measured on three findings files: 137 → 101 s). Nor, by
      // default, the trace's DOM snapshots: they are taken before and after every action of
      // every test, passing or not (four findings files: 68 → 61 s of CPU, docs/benchmarks.md
      // #suite-time); E2E_TRACE_SNAPSHOTS=1 records them to look into a failure. The
      // scenarios' own screenshots are taken as before.
      screenshot: 'only-on-failure',
      trace: {
        mode: 'retain-on-failure',
        screenshots: false,
        snapshots: process.env.E2E_TRACE_SNAPSHOTS === '1',
      },
      locale: 'en-GB',
      viewport: { width: 1400, height: 900 },
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        // No GPU process: without a GPU, Chromium emulates one in software (SwiftShader) for
        // compositing, and that process took a third of the browser tests' CPU. Software
        // compositing draws the same pages (measured on triage, sla and query: 80 -> 55 s of
        // CPU, 84 -> 66 s of wall time, screenshots unchanged).
        args: [
          '--no-sandbox',
          '--disable-dev-shm-usage',
          '--disable-gpu',
          '--disable-software-rasterizer',
        ],
      },
    },
  };
}
