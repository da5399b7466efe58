/**
 * Starts what the browser tests run against, the way `npm run up` runs it: a temporary
 * database on the project's stack (tools/stack/stack.sh, started by tools/test.sh), the
 * certificate service from its sources on a free port (migrations at start), a test OpenID
 * provider for single sign-on (@platform/testing's, the one the service's own SSO tests use)
 * and the built UI behind apps/certificate-web/server/serve.mjs (API proxied same-origin).
 * Returns the teardown.
 *
 * The service has a license vendor key made here (tools/license, `keygen`), so tests activate
 * signed licenses (e.g. a small device limit) and read the key file from CERT_VENDOR_KEY_FILE.
 * One platform per Playwright worker; worker i reads its variables as `<NAME>__i`
 * (@platform/web-ui/e2e, `stackVar`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { TestIdentityProvider } from '@platform/testing/oidc';
import {
  REPOSITORY_ROOT,
  adminSql,
  freePort,
  publishPlatforms,
  stackEnv,
  startNode,
  waitForHttp,
  type Child,
} from '@platform/web-ui/e2e';
import { SSO_ACCOUNTS, SPA_CLIENT_ID } from './support/accounts';

const LICENSE_TOOL = join(REPOSITORY_ROOT, 'tools/license/certsvc-license.mjs');

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const { pgUrl, redisUrl } = stackEnv();
  // CERTIFICATE_WEB_DIST: a build of this run's own (tools/test.sh builds into the run's
  // output directory); else dist/apps/certificate-web, built when missing.
  const dist =
    process.env.CERTIFICATE_WEB_DIST ?? join(REPOSITORY_ROOT, 'dist/apps/certificate-web');
  if (!existsSync(join(dist, 'index.html'))) {
    if (process.env.CERTIFICATE_WEB_DIST) {
      throw new Error(`no build in CERTIFICATE_WEB_DIST (${dist})`);
    }
    execFileSync('npx', ['nx', 'run', 'certificate-web:build', '--outputStyle=static'], {
      cwd: REPOSITORY_ROOT,
      stdio: 'inherit',
      env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
    });
  }
  const started = await Promise.allSettled(
    Array.from({ length: Math.max(1, config.workers) }, () => startPlatform(pgUrl, redisUrl, dist)),
  );
  const platforms = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const teardown = async () => {
    await Promise.all(platforms.map((platform) => platform.teardown()));
  };
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  publishPlatforms(platforms);
  return teardown;
}

interface Platform {
  env: Record<string, string>;
  teardown: () => Promise<void>;
}

async function startPlatform(pgUrl: string, redisUrl: string, dist: string): Promise<Platform> {
  const suffix = randomBytes(4).toString('hex');
  const database = `t_certificate_web_${suffix}`;
  await adminSql(pgUrl, (c) => c.query(`CREATE DATABASE ${database}`));
  const databaseUrl = new URL(pgUrl);
  databaseUrl.pathname = `/${database}`;
  const secrets = mkdtempSync(join(tmpdir(), 'certificate-web-e2e-'));
  const vendorKeyFile = join(secrets, 'vendor.key');
  const vendorPublicKey = execFileSync(
    process.execPath,
    [LICENSE_TOOL, 'keygen', '--out', vendorKeyFile],
    { encoding: 'utf8' },
  ).trim();
  const adminEmail = 'admin@certificate-web.test';
  const adminPassword = `Pw-${randomBytes(12).toString('base64url')}-7Aa`;
  const children: Child[] = [];
  let idp: TestIdentityProvider | undefined;
  const teardown = async () => {
    for (const child of children.reverse()) await child.stop();
    await idp?.stop();
    await adminSql(pgUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)).catch(
      () => undefined,
    );
    rmSync(secrets, { recursive: true, force: true });
  };
  try {
    // The UI's port first: the provider and the service must know its callback page.
    const webPort = await freePort();
    const webUrl = `http://127.0.0.1:${webPort}`;
    const redirectUri = `${webUrl}/auth/callback`;
    idp = await TestIdentityProvider.start({
      clients: [
        {
          client_id: SPA_CLIENT_ID,
          redirect_uris: [redirectUri],
          token_endpoint_auth_method: 'none',
        },
      ],
      accounts: SSO_ACCOUNTS,
    });
    const apiPort = await freePort();
    const serviceEnv: Record<string, string> = {
      CERTSVC_HOST: '127.0.0.1',
      CERTSVC_PORT: String(apiPort),
      CERTSVC_DATABASE_URL: databaseUrl.toString(),
      CERTSVC_REDIS_URL: redisUrl,
      CERTSVC_RATE_LIMIT_KEY_PREFIX: `cweb${suffix}:rl:`,
      CERTSVC_JWT_SECRET: randomBytes(48).toString('base64'),
      CERTSVC_CA_KEY_ENC_KEY: randomBytes(32).toString('hex'),
      CERTSVC_LOCAL_AUTH_ENABLED: 'true',
      CERTSVC_LOCAL_ADMIN_EMAIL: adminEmail,
      CERTSVC_LOCAL_ADMIN_PASSWORD: adminPassword,
      // The refresh cookie without `Secure`: the tests' pages are plain http on loopback.
      CERTSVC_DEV_MODE: 'true',
      CERTSVC_LOG_LEVEL: 'warn',
      // The scenarios sign in and enroll many times a minute from one address.
      CERTSVC_LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
      CERTSVC_ENROLL_RATE_LIMIT_PER_MINUTE: '100000',
      CERTSVC_AGENT_RATE_LIMIT_PER_MINUTE: '100000',
      CERTSVC_LICENSE_VENDOR_PUBLIC_KEY: vendorPublicKey,
      CERTSVC_OIDC_ISSUER: idp.issuer,
      CERTSVC_OIDC_CLIENT_ID: SPA_CLIENT_ID,
      CERTSVC_OIDC_REDIRECT_URIS: redirectUri,
      CERTSVC_IMAGE_TAG: 'v-e2e',
      // Webhooks on, delivered by the worker below every second; the endpoints the tests
      // register are loopback HTTP receivers, which the request-forgery guard refuses unless
      // told (docs/egress.md; the service's own webhook tests allow the same).
      CERTSVC_WEBHOOKS_ENABLED: 'true',
      CERTSVC_WEBHOOK_ENC_KEY: randomBytes(32).toString('hex'),
      CERTSVC_WEBHOOK_POLL_SECONDS: '1',
      CERTSVC_WEBHOOK_EGRESS_ALLOW_HTTP: 'true',
      CERTSVC_WEBHOOK_EGRESS_ALLOW_LOCAL_DIAL: 'true',
      CERTSVC_WEBHOOK_EGRESS_ALLOWLIST: '127.0.0.0/8',
      // Issuer profiles may point at loopback (test-connection of an unreachable endpoint).
      CERTSVC_ISSUER_EGRESS_ALLOW_LOCAL_DIAL: 'true',
      CERTSVC_ISSUER_EGRESS_ALLOWLIST: '127.0.0.0/8',
      // npm test sets tools/test/swc-node-project.json (tsconfig.base.json's options, one file:
      // @swc-node/register hashes the file list into every module's cache key).
      SWC_NODE_PROJECT: process.env.SWC_NODE_PROJECT ?? join(REPOSITORY_ROOT, 'tsconfig.base.json'),
    };
    const api = startNode(
      `certificate-api-${suffix}`,
      ['-r', '@swc-node/register', 'apps/certificate-service/src/main.ts'],
      serviceEnv,
    );
    children.push(api);
    await waitForHttp(api, `http://127.0.0.1:${apiPort}/health`, 180_000);
    // The worker delivers webhooks; it starts once the API has applied the migrations.
    const worker = startNode(
      `certificate-worker-${suffix}`,
      ['-r', '@swc-node/register', 'apps/certificate-service/src/worker.ts'],
      { ...serviceEnv, CERTSVC_LOG_LEVEL: 'info' },
    );
    children.push(worker);
    const web = startNode(`certificate-web-${suffix}`, ['apps/certificate-web/server/serve.mjs'], {
      CERTIFICATE_WEB_PORT: String(webPort),
      CERTSVC_API_URL: `http://127.0.0.1:${apiPort}`,
      CERTIFICATE_WEB_ROOT: dist,
      CERTSVC_IMAGE_TAG: 'v-e2e',
    });
    children.push(web);
    await waitForHttp(web, `${webUrl}/healthz`, 30_000);
    await waitForOutput(worker, 'worker ready', 120_000);
    return {
      env: {
        CERT_WEB_URL: webUrl,
        CERT_API_URL: `http://127.0.0.1:${apiPort}`,
        CERT_ADMIN_EMAIL: adminEmail,
        CERT_ADMIN_PASSWORD: adminPassword,
        CERT_DATABASE_URL: databaseUrl.toString(),
        CERT_VENDOR_KEY_FILE: vendorKeyFile,
      },
      teardown,
    };
  } catch (error) {
    await teardown();
    throw error;
  }
}

/** Waits until the process has printed `text` (its developer-mode log is not JSON). */
async function waitForOutput(child: Child, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!child.output().includes(text)) {
    if (child.process.exitCode !== null || Date.now() > deadline) {
      throw new Error(`${child.name}: no "${text}":\n${child.output().slice(-4000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
