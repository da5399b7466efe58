import {
  createEmptyTestDatabase,
  freePort,
  REPOSITORY_ROOT,
  type TestDatabase,
} from '@platform/testing';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  builtImages,
  runInImage,
  unpackImage,
  waitForOk,
  type BuiltImages,
  type ImageProcess,
  type UnpackedImage,
} from './image-harness';

/**
 * Every image `npm run images` built (dist/images), unpacked with umoci and run under
 * unshare/chroot the way a hardened pod runs it (read-only root, uid 10001, private /tmp)
 * against the test stack: migrate, API, worker, runner and both UI servers, each answering
 * with the version stamped at build time. Run by `npm run images:test` (tools/images/test.sh).
 */
const RECIPE = JSON.parse(
  readFileSync(join(REPOSITORY_ROOT, 'tools/images/images.json'), 'utf8'),
) as { images: { name: string; kind: string; cmd: string[]; entrypoints?: string[] }[] };
const SECRET = 'image-test-secret-'.padEnd(48, 'x');
const PREFIX = `imgtest${process.pid}`;
/** What a hardened pod gets: the charts' settings for logs and the production mode. */
const LOCAL = { HOST: '127.0.0.1' };

let built: BuiltImages;
const images = new Map<string, UnpackedImage>();
const running: ImageProcess[] = [];
const databases: TestDatabase[] = [];
const urls: Record<string, string> = {};

function start(name: string, env: Record<string, string>, args?: string[]): ImageProcess {
  const proc = runInImage(images.get(name)!, env, args);
  running.push(proc);
  return proc;
}

async function json(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** Files of a tree, as paths relative to it (symbolic links not followed). */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && !e.isSymbolicLink()
      ? [`${prefix}${e.name}/`, ...walk(join(dir, e.name), `${prefix}${e.name}/`)]
      : [`${prefix}${e.name}`],
  );
}

beforeAll(() => {
  built = builtImages();
  for (const { name } of RECIPE.images) images.set(name, unpackImage(name, built.tag));
}, 240_000);
afterAll(async () => {
  await Promise.all(running.map((p) => p.kill()));
  await Promise.all(databases.map((d) => d.drop()));
  for (const image of images.values()) image.remove();
});

describe('The images as built', () => {
  it('deploy/images/*.Containerfile say what tools/images/images.json says', () => {
    execFileSync('node', ['tools/images/containerfiles.mjs', '--check'], { cwd: REPOSITORY_ROOT });
  });

  it('each is at most 200 MB unpacked (its file system, as `docker images` counts it)', () => {
    expect(built.images.map((i) => i.name).sort()).toEqual(RECIPE.images.map((i) => i.name).sort());
    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    console.log(
      built.images
        .map(
          (i) => `${i.name}: ${mb(i.pulled_bytes)} MB pulled, ${mb(i.unpacked_bytes)} MB unpacked`,
        )
        .join('\n'),
    );
    for (const image of built.images) {
      expect([image.name, image.unpacked_bytes <= 200e6]).toEqual([image.name, true]);
      expect(image.pulled_bytes).toBeLessThan(image.unpacked_bytes);
    }
  });

  it.each(RECIPE.images.filter((i) => i.kind === 'service').map((i) => [i.name] as const))(
    '%s: date-fns keeps only what pino-roll loads, and pino-roll still loads it',
    async (name) => {
      const modules = join(images.get(name)!.rootfs, 'app/node_modules');
      if (!existsSync(join(modules, 'pino-roll'))) return;
      expect(existsSync(join(modules, 'date-fns/locale/de.cjs'))).toBe(false);
      expect(existsSync(join(modules, 'date-fns/fp'))).toBe(false);
      expect(existsSync(join(modules, 'date-fns/locale/en-US.cjs'))).toBe(true);
      const probe = start(name, {}, [
        'node',
        '-e',
        `const roll = require('pino-roll'); const { format, addDays, parse, isValid } = require('date-fns');
         const day = parse('2026-02-28', 'yyyy-MM-dd', new Date());
         console.log(typeof roll, isValid(day), format(addDays(day, 1), 'yyyy-MM-dd'));`,
      ]);
      expect(await probe.ended).toBe(0);
      expect(probe.output().trim()).toBe('function true 2026-03-01');
    },
    60_000,
  );

  it.each(RECIPE.images.map((i) => [i.name, i] as const))(
    '%s: uid 10001, /app, its command, the stamped version, no build tools, nothing writable',
    async (name, recipe) => {
      const image = images.get(name)!;
      expect([image.uid, image.gid, image.cwd, image.args]).toEqual([
        10001,
        10001,
        '/app',
        recipe.cmd,
      ]);
      expect(image.labels['org.opencontainers.image.version']).toBe(built.version);
      const app = join(image.rootfs, 'app');
      const info = JSON.parse(readFileSync(join(app, 'build-info.json'), 'utf8')) as {
        version: string;
      };
      expect(info.version).toBe(built.version);
      for (const entry of recipe.entrypoints ?? ['serve.mjs', 'public/index.html']) {
        expect(existsSync(join(app, entry))).toBe(true);
      }
      // No shell, no package manager, no interpreter but node: the root holds nodejs's runtime only.
      const tools = ['npm', 'npx', 'corepack', 'tsc', 'gcc', 'cc', 'make', 'apt-get', 'git'];
      for (const tool of [...tools, 'sh', 'bash', 'dash', 'perl', 'dpkg', 'apt', 'openssl']) {
        expect([tool, existsSync(join(image.rootfs, 'usr/bin', tool))]).toEqual([tool, false]);
      }
      const files = walk(app);
      const devPackages =
        /^node_modules\/(typescript|@swc|webpack|jest|nx|@nx|rolldown|binaryen|eslint|@types|@bytecodealliance\/componentize-js)\//;
      expect(files.filter((f) => devPackages.test(f) || f.endsWith('.map'))).toEqual([]);
      // Owned by root, not writable by the image's user: a read-only root even when mounted rw.
      const writable = files.filter((f) => {
        const stat = lstatSync(join(app, f));
        return stat.uid !== 0 || (stat.mode & 0o022) !== 0;
      });
      expect(writable).toEqual([]);
      const probe = start(name, {}, [
        'node',
        '-e',
        `const fs = require('node:fs'); const tryWrite = (f) => { try { fs.writeFileSync(f, ''); return 'written'; } catch (e) { return e.code; } };
         console.log(JSON.stringify({ uid: process.getuid(), gid: process.getgid(), app: tryWrite('/app/x'), root: tryWrite('/x'), tmp: tryWrite('/tmp/x'), node: process.version }));`,
      ]);
      expect(await probe.ended).toBe(0);
      expect(JSON.parse(probe.output().trim())).toMatchObject({
        uid: 10001,
        gid: 10001,
        app: 'EROFS',
        root: 'EROFS',
        tmp: 'written',
      });
    },
    60_000,
  );
});

describe('findings-service image', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    const db = await createEmptyTestDatabase('findings');
    databases.push(db);
    env = {
      ...LOCAL,
      DATABASE_URL: db.url,
      REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:56379',
      APP_ENV: 'production',
      LOG_LEVEL: 'info',
      LOG_FILE_SINK_ENABLED: 'false',
      COOKIE_SECURE: 'true',
      JWT_SECRET: SECRET,
      QUEUE_PREFIX: PREFIX,
      RATE_LIMIT_KEY_PREFIX: `${PREFIX}:rl:`,
      REPORT_STORAGE_DIR: '/tmp/reports',
    };
  });

  it('node migrate.js migrates a fresh database and exits 0', async () => {
    const migrate = start('findings-service', env, ['node', 'migrate.js']);
    expect([await migrate.ended, migrate.output()]).toEqual([
      0,
      expect.stringMatching(/applied \d+ migration/),
    ]);
  }, 120_000);

  it('node main.js answers /health and /version with the stamped version', async () => {
    const [port, metrics] = [await freePort(), await freePort()];
    const api = start('findings-service', {
      ...env,
      PORT: String(port),
      METRICS_PORT: String(metrics),
    });
    urls['findings'] = `http://127.0.0.1:${port}`;
    expect(JSON.parse(await waitForOk(api, `${urls['findings']}/health`))).toEqual({
      status: 'ok',
    });
    expect(await json(`${urls['findings']}/version`)).toMatchObject({ version: built.version });
  }, 120_000);

  it('node worker.js serves its metrics (the chart probes them)', async () => {
    const metrics = await freePort();
    const worker = start('findings-service', { ...env, METRICS_PORT: String(metrics) }, [
      'node',
      'worker.js',
    ]);
    expect(await waitForOk(worker, `http://127.0.0.1:${metrics}/metrics`)).toContain('# TYPE');
  }, 120_000);
});

describe('certificate-service image', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    const db = await createEmptyTestDatabase('certificate');
    databases.push(db);
    env = {
      CERTSVC_HOST: '127.0.0.1',
      CERTSVC_DATABASE_URL: db.url,
      CERTSVC_REDIS_URL: process.env['CERTSVC_REDIS_URL'] ?? 'redis://127.0.0.1:56379/1',
      CERTSVC_JWT_SECRET: SECRET,
      CERTSVC_CA_KEY_ENC_KEY: '42'.repeat(32),
      CERTSVC_DEV_MODE: 'false',
      CERTSVC_LOCAL_AUTH_ENABLED: 'false',
      CERTSVC_LOG_LEVEL: 'info',
      CERTSVC_RATE_LIMIT_KEY_PREFIX: `${PREFIX}:rl:`,
      CERTSVC_IMAGE_TAG: built.tag,
    };
  });

  it('node migrate.js migrates a fresh database and exits 0', async () => {
    const migrate = start('certificate-service', env, ['node', 'migrate.js']);
    expect([await migrate.ended, migrate.output()]).toEqual([
      0,
      expect.stringMatching(/applied \d+ migration/),
    ]);
  }, 120_000);

  it('node main.js answers /health and /api/v1/version with the stamped version and tag', async () => {
    const port = await freePort();
    const api = start('certificate-service', { ...env, CERTSVC_PORT: String(port) });
    urls['certificates'] = `http://127.0.0.1:${port}`;
    expect(JSON.parse(await waitForOk(api, `${urls['certificates']}/health`))).toEqual({
      status: 'ok',
    });
    expect(await json(`${urls['certificates']}/api/v1/version`)).toMatchObject({
      version: built.version,
      image_tag: built.tag,
    });
  }, 120_000);

  it('node worker.js starts and keeps running', async () => {
    const worker = start('certificate-service', env, ['node', 'worker.js']);
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect([worker.running(), worker.output()]).toEqual([true, expect.stringContaining('"level"')]);
    expect(worker.output()).not.toMatch(/"level":"(error|fatal)"|\n\s+at /);
  }, 60_000);
});

describe('plugin-runner image', () => {
  it('node main.js answers /health and /version with the stamped version', async () => {
    const [http, grpc, metrics] = [await freePort(), await freePort(), await freePort()];
    const runner = start('plugin-runner', {
      APP_ENV: 'production',
      LOG_FILE_SINK_ENABLED: 'false',
      PLUGIN_RUNNER_TOKEN: SECRET,
      PLUGIN_RUNNER_HOST: '127.0.0.1',
      PLUGIN_RUNNER_PORT: String(http),
      PLUGIN_RUNNER_GRPC_PORT: String(grpc),
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(metrics),
      TMPDIR: '/tmp',
    });
    await waitForOk(runner, `http://127.0.0.1:${http}/health`);
    expect(await json(`http://127.0.0.1:${http}/version`)).toMatchObject({
      version: built.version,
    });
  }, 120_000);

  it('its WebAssembly sandbox loads jco (the bundlers and compilers jco declares are left out)', async () => {
    const probe = start('plugin-runner', {}, [
      'node',
      '--input-type=module',
      '-e',
      "const jco = await import('@bytecodealliance/jco'); console.log(typeof jco.transpile, typeof jco.componentWit);",
    ]);
    expect([await probe.ended, probe.output().trim()]).toEqual([0, 'function function']);
  }, 60_000);
});

describe('web UI images', () => {
  it('findings-web serves the UI, its own /healthz and the API /version through its proxy', async () => {
    const port = await freePort();
    const web = start('findings-web', {
      FINDINGS_WEB_HOST: '127.0.0.1',
      FINDINGS_WEB_PORT: String(port),
      FINDINGS_API_URL: urls['findings'] ?? 'http://127.0.0.1:9',
    });
    const base = `http://127.0.0.1:${port}`;
    expect(await waitForOk(web, `${base}/healthz`)).toContain('ok');
    const index = await waitForOk(web, `${base}/`);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${base}${script}`)).status).toBe(200);
    expect(await json(`${base}/version`)).toMatchObject({ version: built.version });
  }, 60_000);

  it('certificate-web serves the UI, /ui-version.json with its tag and the API version through its proxy', async () => {
    const port = await freePort();
    const web = start('certificate-web', {
      CERTIFICATE_WEB_HOST: '127.0.0.1',
      CERTIFICATE_WEB_PORT: String(port),
      CERTSVC_API_URL: urls['certificates'] ?? 'http://127.0.0.1:9',
      CERTSVC_IMAGE_TAG: built.tag,
    });
    const base = `http://127.0.0.1:${port}`;
    expect(await waitForOk(web, `${base}/healthz`)).toContain('ok');
    expect(await waitForOk(web, `${base}/`)).toContain('<script');
    expect(await json(`${base}/ui-version.json`)).toEqual({ image_tag: built.tag });
    expect(await json(`${base}/api/v1/version`)).toMatchObject({
      version: built.version,
      image_tag: built.tag,
    });
  }, 60_000);
});
