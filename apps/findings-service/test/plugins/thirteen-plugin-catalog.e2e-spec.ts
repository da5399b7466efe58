import { execFile } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
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
// The local catalog componentizes every wasm plugin the shared cache lacks; 13 installs follow.
jest.setTimeout(300_000);

/** The spec's catalog: three enrichers, one source, six channels, three providers (design §6). */
const CATALOG: Record<string, { capability: string; runtime: 'wasm' | 'native' }> = {
  'cmdb-enricher': { capability: 'finding_enricher', runtime: 'wasm' },
  'cve-enricher': { capability: 'finding_enricher', runtime: 'wasm' },
  'bdu-enricher': { capability: 'finding_enricher', runtime: 'wasm' },
  'fleet-source': { capability: 'finding_source', runtime: 'wasm' },
  'telegram-channel': { capability: 'notification_channel', runtime: 'native' },
  'slack-channel': { capability: 'notification_channel', runtime: 'native' },
  'teams-channel': { capability: 'notification_channel', runtime: 'native' },
  'mattermost-channel': { capability: 'notification_channel', runtime: 'native' },
  'maxru-channel': { capability: 'notification_channel', runtime: 'native' },
  'email-channel': { capability: 'notification_channel', runtime: 'native' },
  'jira-provider': { capability: 'ticketing_provider', runtime: 'wasm' },
  'github-provider': { capability: 'ticketing_provider', runtime: 'wasm' },
  'trello-provider': { capability: 'ticketing_provider', runtime: 'wasm' },
};

interface CatalogVersion {
  version: string;
  runtime: string;
  capabilities: string[];
  manifest: string;
  signature: string | null;
}

/**
 * The catalog `npm run up` serves (tools/catalog/local-catalog.mjs over tools/catalog/plugins/)
 * holds exactly the thirteen plugins of the spec, every version signed by the publisher key,
 * and each of them installs from the official source — the wasm ones at once, the native
 * channels once the administrator grants the source `allows_native`.
 */
describe('the thirteen-plugin catalog', () => {
  let work: string;
  let server: ServiceProcess | undefined;
  let t: TestApp | undefined;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'wp5-catalog-13-'));
    await run(
      process.execPath,
      [
        join(REPOSITORY_ROOT, 'tools/catalog/local-catalog.mjs'),
        '--state',
        join(work, 'state'),
        '--out',
        join(work, 'catalog'),
      ],
      {
        timeout: 13 * BUILD_TIMEOUT_MS,
        env: { ...process.env, PLUGIN_COMPONENT_CACHE: componentCacheDir(process.env) },
      },
    );
  }, 13 * BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await t?.close();
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('lists exactly the thirteen plugins (naming any missing or extra one), each with its capability and runtime, every version signed', async () => {
    const publicKey = createPublicKey(await readFile(join(work, 'catalog/publisher.pub.pem')));
    const envelope = JSON.parse(await readFile(join(work, 'catalog/catalog.json'), 'utf8')) as {
      catalog: string;
      signature: string;
    };
    const documentBytes = Buffer.from(envelope.catalog, 'base64');
    expect(verify(null, documentBytes, publicKey, Buffer.from(envelope.signature, 'base64'))).toBe(
      true,
    );
    const document = JSON.parse(documentBytes.toString('utf8')) as {
      plugins: { id: string; available_versions: CatalogVersion[] }[];
    };
    const ids = document.plugins.map((p) => p.id);
    expect({
      missing: Object.keys(CATALOG)
        .filter((id) => !ids.includes(id))
        .sort(),
      unexpected: ids.filter((id) => !(id in CATALOG)).sort(),
    }).toEqual({ missing: [], unexpected: [] });
    for (const plugin of document.plugins) {
      const expected = CATALOG[plugin.id]!;
      for (const v of plugin.available_versions) {
        expect({ id: plugin.id, version: v.version, runtime: v.runtime }).toEqual({
          id: plugin.id,
          version: v.version,
          runtime: expected.runtime,
        });
        expect(v.capabilities).toContain(expected.capability);
        const signed =
          v.signature !== null &&
          verify(
            null,
            Buffer.from(v.manifest, 'base64'),
            publicKey,
            Buffer.from(v.signature, 'base64'),
          );
        expect({ id: plugin.id, version: v.version, signed }).toEqual({
          id: plugin.id,
          version: v.version,
          signed: true,
        });
      }
    }
  });

  it('installs each of the thirteen from the official source (native ones after allows_native is granted)', async () => {
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
    const install = (id: string) =>
      request(t!.url)
        .post('/api/v1/admin/installed-plugins')
        .set(auth)
        .send({
          source_type: 'marketplace',
          marketplace_id: official?.['id'],
          catalog_plugin_id: id,
          ...(CATALOG[id]!.runtime === 'native' ? { runtime: 'native' } : {}),
        });
    const outcomes: Record<string, number | string> = {};
    for (const id of Object.keys(CATALOG).filter((i) => CATALOG[i]!.runtime === 'wasm')) {
      const answer = await install(id);
      outcomes[id] =
        answer.status === 201 ? 201 : `${answer.status} ${JSON.stringify(answer.body)}`;
    }
    const natives = Object.keys(CATALOG).filter((i) => CATALOG[i]!.runtime === 'native');
    const refused = await install(natives[0]!);
    expect(refused.status).toBe(422);
    await request(t.url)
      .put(`/api/v1/admin/plugin-marketplaces/${String(official?.['id'])}`)
      .set(auth)
      .send({ allows_native: true })
      .expect(200);
    for (const id of natives) {
      const answer = await install(id);
      outcomes[id] =
        answer.status === 201 ? 201 : `${answer.status} ${JSON.stringify(answer.body)}`;
    }
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(CATALOG).map((id) => [id, 201])));
    const installed = await request(t.url)
      .get('/api/v1/admin/installed-plugins')
      .set(auth)
      .expect(200);
    const rows = (installed.body as { data: { catalog_plugin_id: string; runtime: string }[] })
      .data;
    expect(rows.map((r) => [r.catalog_plugin_id, r.runtime]).sort()).toEqual(
      Object.entries(CATALOG)
        .map(([id, c]) => [id, c.runtime])
        .sort(),
    );
  });
});
