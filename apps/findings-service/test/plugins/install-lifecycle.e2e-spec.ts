import { generateSigningKeyPair } from '@platform/plugin-sdk';
import { buildNativeChannelFixture } from '@platform/plugin-protocol/testing';
import type { ServiceProcess } from '@platform/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { InstalledPluginsService } from '../../src/modules/plugins/installed-plugins/installed-plugins.service';
import { PluginRunnerClient } from '../../src/modules/plugin-runner-client/plugin-runner.client';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  BUILD_TIMEOUT_MS,
  buildCatalogDir,
  pluginDir,
  selfSignedCertificate,
  sha256,
  startCatalogServer,
  startRunner,
  variantOf,
  zoneEnricherComponent,
  type CatalogServer,
  type ExampleComponent,
} from './support/catalog-lab';

// A load transpiles and compiles a 12 MB component (seconds, more on the shared machine).
jest.setTimeout(180_000);

const TOKEN = 'findings-to-runner-token-p3-0123456789abcdef';
const PROJECT = '33333333-3333-4333-8333-333333333333';
const publisher = generateSigningKeyPair();
const otherPublisher = generateSigningKeyPair();

let work: string;
let catalogRoot: string;
let keyFile: string;
let dirs: string[];
let zone: ExampleComponent;
let server: CatalogServer;
let runner: ServiceProcess;
let t: TestApp;
let admin: Login;
const digests: Record<string, string> = {};

/** The settings schema of the catalog's zone-enricher: the example's plus a secret token. */
const ZONE_SETTINGS = [
  { name: 'zones', type: 'json', required: true },
  { name: 'check_cves', type: 'boolean' },
  { name: 'api_token', type: 'string', secret: true },
  { name: 'lookup_url', type: 'url' },
];

async function writeCatalog(revoke: string[] = []): Promise<void> {
  await buildCatalogDir({ out: catalogRoot, keyFile, dirs, revoke });
  // served bytes that are not what the signed manifest names
  await writeFile(
    join(catalogRoot, 'artifacts/tampered-enricher-1.0.0.wasm'),
    variantOf(zone.component, 'tampered-after-signing'),
  );
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'p3-catalog-'));
  catalogRoot = join(work, 'catalog');
  keyFile = join(work, 'publisher.pem');
  await writeFile(keyFile, publisher.privateKeyPem, { mode: 0o600 });
  zone = await zoneEnricherComponent();
  const base = { ...zone.manifest, settings: ZONE_SETTINGS };
  const src = join(work, 'builds');
  const version = async (
    id: string,
    v: string,
    artifact: Buffer,
    extra: Record<string, unknown> = {},
    name?: string,
  ) => {
    const dir = await pluginDir(src, { ...base, id, version: v, ...extra }, artifact, name);
    digests[`${id}@${v}`] = sha256(artifact);
    return dir;
  };
  dirs = [
    await version('zone-enricher', '2.0.0', zone.component),
    await version('zone-enricher', '2.1.0', variantOf(zone.component, '2.1.0')),
    await version('zone-enricher', '1.5.0', variantOf(zone.component, '1.5.0')),
    await version('zone-enricher', '3.0.0', variantOf(zone.component, '3.0.0'), {
      capabilities: ['finding_enricher', 'finding_source'],
    }),
    await version('zone-enricher', '9.0.0', variantOf(zone.component, '9.0.0'), {
      min_service_version: '>=0.34',
    }),
    await version('revoked-enricher', '1.0.0', variantOf(zone.component, 'revoked')),
    await version('tampered-enricher', '1.0.0', variantOf(zone.component, 'tampered')),
    await version('future-enricher', '1.0.0', variantOf(zone.component, 'future'), {
      min_service_version: '>=0.34',
    }),
    await version(
      'chat-channel',
      '1.0.0',
      buildNativeChannelFixture('normal', 'p3'),
      {
        runtime: 'native',
        capabilities: ['notification_channel'],
        settings: [{ name: 'chat_id', type: 'string', per_project: true }],
      },
      'channel.js',
    ),
  ];
  await writeCatalog([digests['revoked-enricher@1.0.0']]);
  const tls = selfSignedCertificate(work);
  server = await startCatalogServer(catalogRoot, tls);
  const started = await startRunner(TOKEN);
  runner = started.runner;
  t = await startTestApp({
    PLUGIN_RUNNER_URL: started.url,
    PLUGIN_RUNNER_TOKEN: TOKEN,
    PLUGIN_CATALOG_ALLOW_LOCAL: 'true',
    PLUGIN_CATALOG_CA_FILE: tls.certFile,
    PLUGIN_SECRETS_KEY: 'p3-test-plugin-secrets-key-0123456789abcdef',
  });
  admin = await loginAdmin(t);
}, BUILD_TIMEOUT_MS + 60_000);

afterAll(async () => {
  await t?.close();
  await runner?.stop();
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const api = () => ({
  get: (path: string) => request(t.url).get(path).set('Authorization', `Bearer ${admin.token}`),
  post: (path: string, body: object = {}) =>
    request(t.url).post(path).set('Authorization', `Bearer ${admin.token}`).send(body),
  put: (path: string, body: object) =>
    request(t.url).put(path).set('Authorization', `Bearer ${admin.token}`).send(body),
});

const sql = (text: string, values: unknown[] = []) =>
  t.app.get(DataSource).query(text, values) as Promise<Record<string, unknown>[]>;

interface Installed {
  id: string;
  version: string;
  enabled: boolean;
  capabilities: string[];
  settings: Record<string, unknown>;
  secret_settings_set: string[];
  pending_version: { version: string; added_capabilities: string[] } | null;
  artifact_sha256: string;
}

async function installedState(): Promise<Installed[]> {
  const res = await api().get('/api/v1/admin/installed-plugins').expect(200);
  return (res.body as { data: Installed[] }).data;
}

async function registerSource(body: Record<string, unknown>): Promise<string> {
  const res = await api()
    .post('/api/v1/admin/plugin-marketplaces', {
      catalog_url: `${server.url}catalog.json`,
      ...body,
    })
    .expect(201);
  return (res.body as { data: { id: string } }).data.id;
}

function codeOf(res: request.Response): string {
  return (res.body as { code: string }).code;
}

describe('plugin marketplaces, signed catalogs and the install lifecycle', () => {
  let signed: string;
  let zoneId: string;

  it('registers a signed source: allows_native refused on POST, the key never in an answer', async () => {
    const refused = await api()
      .post('/api/v1/admin/plugin-marketplaces', {
        name: 'native at once',
        catalog_url: `${server.url}catalog.json`,
        allows_native: false,
      })
      .expect(400);
    expect(codeOf(refused)).toBe('plugin_source_native_on_create');

    signed = await registerSource({ name: 'Test catalog', public_key: publisher.publicKeyPem });
    const list = await api().get('/api/v1/admin/plugin-marketplaces').expect(200);
    expect(JSON.stringify(list.body)).not.toContain('PUBLIC KEY');
    expect(JSON.stringify(list.body)).not.toContain('public_key');
    const sources = (list.body as { data: Record<string, unknown>[] }).data;
    expect(sources.find((s) => s['id'] === signed)).toMatchObject({
      signed: true,
      allows_native: false,
      native_effective: false,
      official: false,
    });
    // the official source, registered at start, without the native permission
    expect(sources.filter((s) => s['official'] === true)).toEqual([
      expect.objectContaining({ allows_native: false, is_active: true }),
    ]);
  });

  it('fetches the verified catalog: version history, compatibility, revocations', async () => {
    const res = await api().get(`/api/v1/admin/plugin-marketplaces/${signed}/catalog`).expect(200);
    const catalog = (res.body as { data: Record<string, unknown> }).data;
    expect(catalog['signed']).toBe(true);
    expect(catalog['revoked_digests']).toEqual([digests['revoked-enricher@1.0.0']]);
    const plugins = catalog['plugins'] as {
      id: string;
      latest_version: string;
      available_versions: { version: string; compatible: boolean; revoked: boolean }[];
    }[];
    const zoneEntry = plugins.find((p) => p.id === 'zone-enricher');
    expect(zoneEntry?.latest_version).toBe('9.0.0');
    expect(zoneEntry?.available_versions.map((v) => [v.version, v.compatible])).toEqual([
      ['9.0.0', false],
      ['3.0.0', true],
      ['2.1.0', true],
      ['2.0.0', true],
      ['1.5.0', true],
    ]);
    expect(plugins.find((p) => p.id === 'revoked-enricher')?.available_versions[0].revoked).toBe(
      true,
    );
    expect(server.requests).toContain('/catalog.json');
  });

  it('refuses a catalog whose signature does not verify with the source key', async () => {
    const wrong = await registerSource({
      name: 'wrong key',
      public_key: otherPublisher.publicKeyPem,
    });
    const res = await api().get(`/api/v1/admin/plugin-marketplaces/${wrong}/catalog`).expect(422);
    expect(codeOf(res)).toBe('plugin_catalog_signature_invalid');
  });

  it('refuses sideload on the JSON route; installs a concrete version, not enabled', async () => {
    const sideload = await api()
      .post('/api/v1/admin/installed-plugins', {
        source_type: 'sideload',
        marketplace_id: signed,
        catalog_plugin_id: 'zone-enricher',
      })
      .expect(400);
    expect(codeOf(sideload)).toBe('plugin_sideload_on_json_route');
    expect(await installedState()).toEqual([]);

    const res = await api()
      .post('/api/v1/admin/installed-plugins', {
        source_type: 'marketplace',
        marketplace_id: signed,
        catalog_plugin_id: 'zone-enricher',
        version: '2.0.0',
      })
      .expect(201);
    const installed = (res.body as { data: Installed & Record<string, unknown> }).data;
    zoneId = installed.id;
    expect(installed).toMatchObject({
      source_type: 'marketplace',
      marketplace_id: signed,
      catalog_plugin_id: 'zone-enricher',
      runtime: 'wasm',
      enabled: false,
      version: '2.0.0',
      artifact_sha256: zone.digest,
      capabilities: ['finding_enricher'],
    });
    const audit = await sql(
      `SELECT action FROM plugin_audit_events WHERE installed_plugin_id = $1`,
      [zoneId],
    );
    expect(audit.map((r) => r['action'])).toEqual(['plugin.installed']);
  });

  it('refuses, each with its error and nothing installed changed: older over newer, revoked, tampered, unmet service version, native without permission', async () => {
    const before = await installedState();
    const install = (body: Record<string, unknown>) =>
      api().post('/api/v1/admin/installed-plugins', {
        source_type: 'marketplace',
        marketplace_id: signed,
        ...body,
      });
    expect(
      codeOf(await install({ catalog_plugin_id: 'zone-enricher', version: '1.5.0' }).expect(422)),
    ).toBe('plugin_version_older');
    expect(codeOf(await install({ catalog_plugin_id: 'revoked-enricher' }).expect(422))).toBe(
      'plugin_artifact_revoked',
    );
    const tampered = await install({ catalog_plugin_id: 'tampered-enricher' }).expect(422);
    expect(codeOf(tampered)).toBe('plugin_artifact_invalid');
    expect(JSON.stringify(tampered.body)).toContain('digest_mismatch');
    expect(codeOf(await install({ catalog_plugin_id: 'future-enricher' }).expect(422))).toBe(
      'plugin_service_version_unmet',
    );
    expect(codeOf(await install({ catalog_plugin_id: 'chat-channel' }).expect(422))).toBe(
      'plugin_runtime_refused',
    );
    expect(
      codeOf(await install({ catalog_plugin_id: 'chat-channel', runtime: 'native' }).expect(422)),
    ).toBe('plugin_native_not_permitted');
    expect(await installedState()).toEqual(before);
    const artifacts = await sql(`SELECT digest FROM plugin_artifacts ORDER BY digest`);
    expect(artifacts.map((r) => r['digest'])).toEqual([zone.digest]);
  });

  it('native needs a signed source with allows_native: granted and withdrawn are audited, the key is locked meanwhile', async () => {
    const unsigned = await registerSource({ name: 'unsigned' });
    const granted = await api()
      .put(`/api/v1/admin/plugin-marketplaces/${unsigned}`, { allows_native: true })
      .expect(200);
    expect((granted.body as { data: Record<string, unknown> }).data).toMatchObject({
      allows_native: true,
      signed: false,
      native_effective: false,
    });
    const refused = await api()
      .post('/api/v1/admin/installed-plugins', {
        source_type: 'marketplace',
        marketplace_id: unsigned,
        catalog_plugin_id: 'chat-channel',
        runtime: 'native',
      })
      .expect(422);
    expect(codeOf(refused)).toBe('plugin_native_not_permitted');

    const other = await registerSource({ name: 'keyed', public_key: publisher.publicKeyPem });
    await api()
      .put(`/api/v1/admin/plugin-marketplaces/${other}`, { allows_native: true })
      .expect(200);
    const locked = await api()
      .put(`/api/v1/admin/plugin-marketplaces/${other}`, {
        public_key: otherPublisher.publicKeyPem,
      })
      .expect(422);
    expect(codeOf(locked)).toBe('plugin_source_key_locked');
    await api()
      .put(`/api/v1/admin/plugin-marketplaces/${other}`, { allows_native: false })
      .expect(200);
    await api()
      .put(`/api/v1/admin/plugin-marketplaces/${other}`, {
        public_key: otherPublisher.publicKeyPem,
      })
      .expect(200);
    const audit = await sql(
      `SELECT action, actor_label FROM plugin_audit_events WHERE marketplace_id = $1 ORDER BY id`,
      [other],
    );
    expect(audit.map((r) => r['action'])).toEqual([
      'marketplace.created',
      'marketplace.native_granted',
      'marketplace.native_withdrawn',
      'marketplace.updated',
    ]);
    expect(audit[1]['actor_label']).toBe('root-admin@example.test');

    await api()
      .put(`/api/v1/admin/plugin-marketplaces/${signed}`, { allows_native: true })
      .expect(200);
    const channel = await api()
      .post('/api/v1/admin/installed-plugins', {
        source_type: 'marketplace',
        marketplace_id: signed,
        catalog_plugin_id: 'chat-channel',
        runtime: 'native',
      })
      .expect(201);
    expect((channel.body as { data: Installed }).data).toMatchObject({
      runtime: 'native',
      enabled: false,
      capabilities: ['notification_channel'],
    });
  });

  it('settings: secret-marked fields refused through settings, secrets sealed and never returned, empty secret unchanged', async () => {
    const path = `/api/v1/admin/installed-plugins/${zoneId}`;
    const refused = await api()
      .put(path, { settings: { api_token: 'x' } })
      .expect(400);
    expect(codeOf(refused)).toBe('plugin_secret_setting_refused');
    const wrongType = await api()
      .put(path, { settings: { check_cves: 'yes' } })
      .expect(400);
    expect(codeOf(wrongType)).toBe('plugin_settings_invalid');

    const saved = await api()
      .put(path, {
        settings: { check_cves: false },
        secret_settings: { api_token: 's3cret-token-value' },
      })
      .expect(200);
    expect(JSON.stringify(saved.body)).not.toContain('s3cret-token-value');
    expect((saved.body as { data: Installed }).data).toMatchObject({
      settings: { check_cves: false },
      secret_settings_set: ['api_token'],
    });
    const [row] = await sql(`SELECT secret_settings FROM installed_plugins WHERE id = $1`, [
      zoneId,
    ]);
    expect(String(row['secret_settings'])).not.toContain('s3cret');

    await api()
      .put(path, { secret_settings: { api_token: '' } })
      .expect(200);
    const forRun = await t.app.get(InstalledPluginsService).getForRun(zoneId);
    expect(forRun.secretSettings).toEqual({ api_token: 's3cret-token-value' });
  });

  it('does nothing until enabled; enabled it runs in the runner with its settings; disabled it is unloaded', async () => {
    const client = t.app.get(PluginRunnerClient);
    const invoke = () =>
      client.invoke({
        context: {
          pluginId: zoneId,
          versionDigest: zone.digest,
          projectId: PROJECT,
          eventId: 'e-1',
        },
        capability: 'finding_enricher',
        operation: 'enrich',
        payload: {
          finding: {
            id: 'f-1',
            severity: 'HIGH',
            rule: 'r',
            description: '',
            scanner: 's',
            status: 'open',
            ip: '10.1.2.3',
          },
        },
        settings: { zones: [{ cidr: '10.1.0.0/16', zone: 'office' }] },
      });
    expect(await invoke()).toMatchObject({ ok: false, error: { code: 'not_loaded' } });

    const path = `/api/v1/admin/installed-plugins/${zoneId}`;
    const missing = await api().post(`${path}/enable`).expect(400);
    expect(codeOf(missing)).toBe('plugin_settings_invalid');
    await api()
      .put(path, { settings: { zones: [{ cidr: '10.1.0.0/16', zone: 'office' }] } })
      .expect(200);
    const enabled = await api().post(`${path}/enable`).expect(200);
    expect((enabled.body as { data: Installed }).data.enabled).toBe(true);
    const catalog = t.app.get(InstalledPluginsService);
    expect((await catalog.listEnabledByCapability('finding_enricher')).map((p) => p.id)).toEqual([
      zoneId,
    ]);
    const result = await invoke();
    expect(result.ok).toBe(true);
    expect(result.ok && result.value).toEqual(
      expect.arrayContaining([{ key: 'zone', value: 'office' }]),
    );

    await api().post(`${path}/disable`).expect(200);
    expect(await invoke()).toMatchObject({ ok: false, error: { code: 'not_loaded' } });
    expect(await catalog.listEnabledByCapability('finding_enricher')).toEqual([]);
  });

  it('updates: unmet newest refused, a concrete version applied, widened capabilities held until acknowledged, downgrade only confirmed', async () => {
    const path = `/api/v1/admin/installed-plugins/${zoneId}`;
    const latest = await api().post(`${path}/update`).expect(422);
    expect(codeOf(latest)).toBe('plugin_service_version_unmet');
    expect((await api().get(path).expect(200)).body.data.version).toBe('2.0.0');

    const updated = await api().post(`${path}/update`, { version: '2.1.0' }).expect(200);
    expect((updated.body as { data: Installed }).data).toMatchObject({
      version: '2.1.0',
      artifact_sha256: digests['zone-enricher@2.1.0'],
      settings: { check_cves: false, zones: [{ cidr: '10.1.0.0/16', zone: 'office' }] },
    });

    const widened = await api().post(`${path}/update`, { version: '3.0.0' }).expect(422);
    expect(codeOf(widened)).toBe('plugin_capability_change_pending');
    const held = (await api().get(path).expect(200)).body.data as Installed;
    expect(held).toMatchObject({
      version: '2.1.0',
      capabilities: ['finding_enricher'],
      pending_version: { version: '3.0.0', added_capabilities: ['finding_source'] },
    });
    const acknowledged = await api().post(`${path}/acknowledge-capability-change`).expect(200);
    expect((acknowledged.body as { data: Installed }).data).toMatchObject({
      version: '3.0.0',
      capabilities: ['finding_enricher', 'finding_source'],
      pending_version: null,
    });
    expect(codeOf(await api().post(`${path}/acknowledge-capability-change`).expect(422))).toBe(
      'plugin_no_pending_change',
    );

    const down = await api().post(`${path}/update`, { version: '2.0.0' }).expect(422);
    expect(codeOf(down)).toBe('plugin_downgrade_unconfirmed');
    expect((await api().get(path).expect(200)).body.data.version).toBe('3.0.0');
    const confirmed = await api()
      .post(`${path}/update`, { version: '2.0.0', confirm_downgrade: true })
      .expect(200);
    expect((confirmed.body as { data: Installed }).data).toMatchObject({
      version: '2.0.0',
      artifact_sha256: zone.digest,
    });
    const audit = await sql(
      `SELECT action FROM plugin_audit_events WHERE installed_plugin_id = $1 ORDER BY id`,
      [zoneId],
    );
    expect(audit.map((r) => r['action'])).toEqual(
      expect.arrayContaining([
        'plugin.updated',
        'plugin.update_held',
        'plugin.capability_change_acknowledged',
      ]),
    );
  });

  it('a digest revoked after install is refused at load', async () => {
    await writeCatalog([digests['revoked-enricher@1.0.0'], zone.digest]);
    await api().get(`/api/v1/admin/plugin-marketplaces/${signed}/catalog`).expect(200);
    const path = `/api/v1/admin/installed-plugins/${zoneId}`;
    const res = await api().post(`${path}/enable`).expect(422);
    expect(codeOf(res)).toBe('plugin_artifact_revoked');
    expect((await api().get(path).expect(200)).body.data.enabled).toBe(false);
  });

  it('sideloads a module with its description (unsigned); an older one over it is refused', async () => {
    const manifest = (version: string) =>
      Buffer.from(
        JSON.stringify({
          ...zone.manifest,
          id: 'zone-enricher-local',
          version,
          artifact_sha256: zone.digest,
        }),
      );
    const upload = (parts: { module?: Buffer; description?: Buffer }) => {
      let req = request(t.url)
        .post('/api/v1/admin/installed-plugins/sideload')
        .set('Authorization', `Bearer ${admin.token}`);
      if (parts.module) req = req.attach('module', parts.module, 'component.wasm');
      if (parts.description) req = req.attach('description', parts.description, 'manifest.json');
      return req;
    };
    const missing = await upload({ module: zone.component }).expect(400);
    expect(codeOf(missing)).toBe('plugin_upload_invalid');
    const res = await upload({ module: zone.component, description: manifest('1.0.0') }).expect(
      201,
    );
    expect((res.body as { data: Record<string, unknown> }).data).toMatchObject({
      source_type: 'sideload',
      marketplace_id: null,
      catalog_plugin_id: 'zone-enricher-local',
      version: '1.0.0',
      enabled: false,
    });
    const older = await upload({ module: zone.component, description: manifest('0.9.0') }).expect(
      422,
    );
    expect(codeOf(older)).toBe('plugin_version_older');
  });
});
