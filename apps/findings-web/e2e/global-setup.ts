/**
 * Starts what the browser tests run against, the way `npm run up` runs it: a temporary
 * PostgreSQL database on the project's stack (tools/stack/stack.sh, started by tools/test.sh),
 * the plugin runner, the findings API and worker from their sources on free ports, and the built
 * UI behind apps/findings-web/server/serve.mjs (API proxied same-origin). Returns the teardown.
 *
 * One such platform per Playwright worker (`workers` in playwright.config.ts): a worker's tests
 * see only their own database, queues, rate limits, plugins and settings, exactly as when one
 * worker ran every file in turn.
 * The worker with parallel index i reads its platform from `FINDINGS_WEB_URL__i` and the other
 * variables below (support/fixtures.ts, `stackVar`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import {
  REPOSITORY_ROOT,
  adminSql as admin,
  freePort,
  publishPlatforms,
  stackEnv,
  startNode,
  waitForHttp,
  waitForLine,
  type Child,
} from '@platform/web-ui/e2e';

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const { pgUrl, redisUrl } = stackEnv();
  // FINDINGS_WEB_DIST: a build of this run's own (tools/test.sh builds into the run's output
  // directory, so a build of another run never empties the files this one serves).
  const dist = process.env.FINDINGS_WEB_DIST ?? join(REPOSITORY_ROOT, 'dist/apps/findings-web');
  if (!existsSync(join(dist, 'index.html'))) {
    if (process.env.FINDINGS_WEB_DIST) throw new Error(`no build in FINDINGS_WEB_DIST (${dist})`);
    execFileSync('npx', ['nx', 'run', 'findings-web:build', '--outputStyle=static'], {
      cwd: REPOSITORY_ROOT,
      stdio: 'inherit',
      env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
    });
  }
  const count = Math.max(1, config.workers);
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startPlatform(pgUrl, redisUrl, dist)),
  );
  const platforms = started.flatMap((result) =>
    result.status === 'fulfilled' ? [result.value] : [],
  );
  const teardown = async () => {
    await Promise.all(platforms.map((platform) => platform.teardown()));
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  // `<name>__<index>` per worker; the first platform also under the plain names (tools run
  // outside a worker).
  publishPlatforms(platforms);
  return teardown;
}

interface Platform {
  /** FINDINGS_WEB_URL, FINDINGS_API_URL, FINDINGS_ADMIN_EMAIL, FINDINGS_ADMIN_PASSWORD, FINDINGS_DATABASE_URL */
  env: Record<string, string>;
  teardown: () => Promise<void>;
}

async function startPlatform(pgUrl: string, redisUrl: string, dist: string): Promise<Platform> {
  const suffix = randomBytes(4).toString('hex');
  const database = `t_findings_web_${suffix}`;
  await admin(pgUrl, (c) => c.query(`CREATE DATABASE ${database}`));
  const databaseUrl = new URL(pgUrl);
  databaseUrl.pathname = `/${database}`;
  const storage = mkdtempSync(join(tmpdir(), 'findings-web-e2e-'));
  // Each port is taken just before its process starts: a port found free earlier can be taken
  // meanwhile as the local port of the API's own outgoing connections.
  const apiPort = await freePort();
  const metricsPort = await freePort();
  let webPort = 0;
  const adminEmail = 'admin@findings-web.test';
  const adminPassword = `Pw-${randomBytes(12).toString('base64url')}-7Aa`;
  const common: Record<string, string> = {
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `fweb${suffix}`,
    JWT_SECRET: randomBytes(48).toString('base64'),
    LOCAL_AUTH_ENABLED: 'true',
    LOCAL_ADMIN_EMAIL: adminEmail,
    LOCAL_ADMIN_PASSWORD: adminPassword,
    BOOTSTRAP_ADMIN_EMAILS: adminEmail,
    COOKIE_SECURE: 'false',
    LOG_FILE_SINK_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    REPORT_STORAGE_DIR: storage,
    HOST: '127.0.0.1',
    // development: the plugin tests serve a signed catalog on loopback (PLUGIN_CATALOG_ALLOW_LOCAL).
    APP_ENV: 'development',
    PLUGIN_CATALOG_ALLOW_LOCAL: 'true',
    // npm test sets tools/test/swc-node-project.json (tsconfig.base.json's options, one file:
    // @swc-node/register hashes the file list into every module's cache key).
    SWC_NODE_PROJECT: process.env.SWC_NODE_PROJECT ?? join(REPOSITORY_ROOT, 'tsconfig.base.json'),
    // The scenarios sign in several times within a minute from one address, and two workers
    // drive the API as the same administrator: the per-user 300 requests a minute answered a
    // screen 429 (comment-edit.pw.ts) once the suite passed 40 scenarios. No scenario tests the
    // limits (the service's e2e tests do).
    RATE_LIMIT_AUTH: '1000',
    RATE_LIMIT_API: '100000',
    RATE_LIMIT_API_USER: '100000',
    RATE_LIMIT_API_SERVICE_ACCOUNT: '100000',
    RATE_LIMIT_KEY_PREFIX: `fweb${suffix}:rl:`,
    // auto-closure.pw.ts: the global switch, the manual re-verification routes, a check's
    // attempts 30 ms apart, and re-verification requests to the scanner stand-in on loopback
    // over http (no other scenario uploads with verify_fixes or sets an endpoint).
    FEATURE_AUTO_VERIFY_FIXES: 'true',
    FEATURE_MANUAL_REVERIFICATION: 'true',
    AUTO_CLOSE_ATTEMPT_INTERVAL_MS: '30',
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_LOCAL_DIAL: 'true',
  };
  const children: Child[] = [];
  const teardown = async () => {
    for (const child of children.reverse()) await child.stop();
    await admin(pgUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(
      () => undefined,
    );
    rmSync(storage, { recursive: true, force: true });
  };
  try {
    // The plugin runner (plugin administration enables plugins through it).
    const runnerToken = randomBytes(32).toString('base64url');
    const runner = startNode(
      `plugin-runner-${suffix}`,
      ['-r', '@swc-node/register', 'apps/plugin-runner/src/main.ts'],
      {
        APP_ENV: 'production',
        LOG_FILE_SINK_ENABLED: 'false',
        LOG_LEVEL: 'info',
        PLUGIN_RUNNER_HOST: '127.0.0.1',
        PLUGIN_RUNNER_PORT: '0',
        PLUGIN_RUNNER_GRPC_PORT: '0',
        METRICS_HOST: '127.0.0.1',
        METRICS_PORT: '0',
        PLUGIN_RUNNER_TOKEN: runnerToken,
        // The trackers of the ticket scenario are plain-http stand-ins on loopback.
        PLUGIN_EGRESS_ALLOW_HTTP: 'true',
        PLUGIN_EGRESS_ALLOW_LOCAL_DIAL: 'true',
        SWC_NODE_PROJECT: common.SWC_NODE_PROJECT,
        // npm test's shared transpile cache (tools/test.sh), when set.
        ...(process.env['PLUGIN_RUNNER_TRANSPILE_CACHE_DIR']
          ? { PLUGIN_RUNNER_TRANSPILE_CACHE_DIR: process.env['PLUGIN_RUNNER_TRANSPILE_CACHE_DIR'] }
          : {}),
      },
    );
    children.push(runner);
    const serving = await waitForLine(
      runner,
      (line) => line['msg'] === 'plugin-runner serving',
      120_000,
    );
    Object.assign(common, {
      PLUGIN_RUNNER_URL: `127.0.0.1:${String(serving['grpc_port'])}`,
      PLUGIN_RUNNER_TOKEN: runnerToken,
    });
    const apiProcess = startNode(
      `findings-api-${suffix}`,
      ['-r', '@swc-node/register', 'apps/findings-service/src/main.ts'],
      { ...common, PORT: String(apiPort), METRICS_PORT: String(metricsPort) },
    );
    children.push(apiProcess);
    await waitForHttp(apiProcess, `http://127.0.0.1:${apiPort}/health`, 180_000);
    const workerMetricsPort = await freePort();
    const worker = startNode(
      `findings-worker-${suffix}`,
      ['-r', '@swc-node/register', 'apps/findings-service/src/worker.ts'],
      { ...common, METRICS_PORT: String(workerMetricsPort) },
    );
    children.push(worker);
    await waitForHttp(worker, `http://127.0.0.1:${workerMetricsPort}/metrics`, 180_000);
    webPort = await freePort();
    const web = startNode(`findings-web-${suffix}`, ['apps/findings-web/server/serve.mjs'], {
      FINDINGS_WEB_PORT: String(webPort),
      FINDINGS_API_URL: `http://127.0.0.1:${apiPort}`,
      FINDINGS_WEB_ROOT: dist,
    });
    children.push(web);
    await waitForHttp(web, `http://127.0.0.1:${webPort}/healthz`, 30_000);
  } catch (error) {
    await teardown();
    throw error;
  }
  return {
    env: {
      FINDINGS_WEB_URL: `http://127.0.0.1:${webPort}`,
      FINDINGS_API_URL: `http://127.0.0.1:${apiPort}`,
      FINDINGS_ADMIN_EMAIL: adminEmail,
      FINDINGS_ADMIN_PASSWORD: adminPassword,
      // Seeding what the API cannot make in a browser test's time (a channel plugin row, a violation).
      FINDINGS_DATABASE_URL: databaseUrl.toString(),
    },
    teardown,
  };
}
