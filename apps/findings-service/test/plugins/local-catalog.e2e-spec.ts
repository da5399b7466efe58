import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { componentCacheDir } from '@platform/plugin-sdk/build';
import {
  freePort,
  REPOSITORY_ROOT,
  startServiceProcess,
  waitFor,
  type ServiceProcess,
} from '@platform/testing';
import request from 'supertest';
import { loginAdmin } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import { BUILD_TIMEOUT_MS } from './support/catalog-lab';

const run = promisify(execFile);

// Three catalog plugins are componentized unless the shared component cache has them.
jest.setTimeout(120_000);

/**
 * The local catalog of `npm run up`: tools/catalog/local-catalog.mjs builds and signs the
 * repository's catalog plugins, tools/catalog/serve-catalog.mjs serves them on loopback, and
 * the findings API registers it as its official source (PLUGIN_OFFICIAL_CATALOG_URL, its
 * key, PLUGIN_CATALOG_ALLOW_LOCAL) — a plugin declaring `>=0.33` installs on this 0.33.
 */
describe('the local plugin catalog of npm run up', () => {
  let work: string;
  let server: ServiceProcess | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'p3-local-catalog-'));
    // the state directory's component cache is the one the tests share
    const state = join(work, 'state');
    await run(
      process.execPath,
      [
        join(REPOSITORY_ROOT, 'tools/catalog/local-catalog.mjs'),
        '--state',
        state,
        '--out',
        join(work, 'catalog'),
      ],
      {
        timeout: 3 * BUILD_TIMEOUT_MS,
        env: { ...process.env, PLUGIN_COMPONENT_CACHE: componentCacheDir(process.env) },
      },
    );
  }, 3 * BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await t?.close();
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('is the official source: signed, verified; its fleet source 1.0.8 (>=0.33) installs, its native channels once allows_native is granted', async () => {
    const port = await freePort();
    server = startServiceProcess({
      bundle: join(REPOSITORY_ROOT, 'tools/catalog/serve-catalog.mjs'),
      env: { CATALOG_DIR: join(work, 'catalog'), CATALOG_PORT: String(port) },
    });
    await waitFor(
      async () => {
        await request(`http://127.0.0.1:${port}`).get('/healthz').expect(200);
      },
      { timeoutMs: 10_000, what: 'the catalog server' },
    );
    t = await startTestApp({
      PLUGIN_CATALOG_ALLOW_LOCAL: 'true',
      PLUGIN_OFFICIAL_CATALOG_URL: `http://127.0.0.1:${port}/catalog.json`,
      PLUGIN_OFFICIAL_CATALOG_PUBLIC_KEY: await readFile(
        join(work, 'catalog/publisher.pub.pem'),
        'utf8',
      ),
    });
    const admin = await loginAdmin(t);
    const auth = { Authorization: `Bearer ${admin.token}` };
    const sources = await request(t.url)
      .get('/api/v1/admin/plugin-marketplaces')
      .set(auth)
      .expect(200);
    const official = (sources.body as { data: Record<string, unknown>[] }).data.find(
      (s) => s['official'] === true,
    );
    expect(official).toMatchObject({ signed: true, allows_native: false });
    const catalog = await request(t.url)
      .get(`/api/v1/admin/plugin-marketplaces/${String(official?.['id'])}/catalog`)
      .set(auth)
      .expect(200);
    const plugins = (
      catalog.body as { data: { plugins: { id: string; latest_version: string }[] } }
    ).data.plugins;
    // The WebAssembly plugins and the six native notification channels (build-native.mjs).
    expect(plugins.map((p) => [p.id, p.latest_version])).toEqual(
      expect.arrayContaining([
        ['cmdb-enricher', '1.1.0'],
        ['cve-enricher', '1.0.0'],
        ['email-channel', '1.0.0'],
        ['fleet-source', '1.0.8'],
        ['mattermost-channel', '1.0.1'],
        ['maxru-channel', '1.0.0'],
        ['slack-channel', '1.0.0'],
        ['teams-channel', '1.0.0'],
        ['telegram-channel', '1.0.0'],
      ]),
    );
    const installed = await request(t.url)
      .post('/api/v1/admin/installed-plugins')
      .set(auth)
      .send({
        source_type: 'marketplace',
        marketplace_id: official?.['id'],
        catalog_plugin_id: 'fleet-source',
      })
      .expect(201);
    expect((installed.body as { data: Record<string, unknown> }).data).toMatchObject({
      catalog_plugin_id: 'fleet-source',
      version: '1.0.8',
      capabilities: ['finding_source'],
      enabled: false,
    });

    // A channel is native: refused until the administrator grants the source allows_native.
    const channel = {
      source_type: 'marketplace',
      marketplace_id: official?.['id'],
      catalog_plugin_id: 'mattermost-channel',
      runtime: 'native',
    };
    const refused = await request(t.url)
      .post('/api/v1/admin/installed-plugins')
      .set(auth)
      .send(channel)
      .expect(422);
    expect((refused.body as { code: string }).code).toBe('plugin_native_not_permitted');
    await request(t.url)
      .put(`/api/v1/admin/plugin-marketplaces/${String(official?.['id'])}`)
      .set(auth)
      .send({ allows_native: true })
      .expect(200);
    const mattermost = await request(t.url)
      .post('/api/v1/admin/installed-plugins')
      .set(auth)
      .send(channel)
      .expect(201);
    expect((mattermost.body as { data: Record<string, unknown> }).data).toMatchObject({
      catalog_plugin_id: 'mattermost-channel',
      version: '1.0.1',
      runtime: 'native',
      capabilities: ['notification_channel'],
    });
  });
});
