import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { InstalledPluginSecrets } from '../../src/modules/plugins/installed-plugins/installed-plugin-secrets';
import { freshProduct, type Product } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * A project's values of a WebAssembly plugin's per_project settings - GET, PUT
 * /api/v1/projects/{id}/plugin-settings/{plugin_id} (docs/plugins/project-settings.md): the
 * value a plugin's get-project-secret then answers for that project's events, and no other's.
 */
describe('Project plugin settings - /api/v1/projects/{id}/plugin-settings/{plugin_id}', () => {
  let t: TestApp;
  let admin: Login;
  let product: Product;
  let other: Product;
  let pluginId: string;
  const digest = randomBytes(32).toString('hex');

  async function installed(manifest: Record<string, unknown>, runtime = 'wasm'): Promise<string> {
    const bytes = Buffer.from(JSON.stringify(manifest));
    const [row] = (await t.app.get(DataSource).query(
      `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
              artifact_sha256, manifest, capabilities)
       VALUES ('sideload', $1, $2, true, '1.0.0', $3, $4, $5) RETURNING id`,
      [manifest['id'], runtime, manifest['artifact_sha256'], bytes, manifest['capabilities']],
    )) as { id: string }[];
    return row?.id as string;
  }

  const base = {
    version: '1.0.0',
    wit_version: '0.1.0',
    min_service_version: '>=0.33',
    allowed_hosts: [],
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
    product = await freshProduct(t, admin);
    other = await freshProduct(t, admin);
    pluginId = await installed({
      ...base,
      id: 'regional-enricher',
      capabilities: ['finding_enricher'],
      runtime: 'wasm',
      settings: [
        { name: 'api_token', type: 'string', secret: true },
        { name: 'region', type: 'string', per_project: true },
        { name: 'region_token', type: 'string', secret: true, per_project: true },
      ],
      artifact_sha256: digest,
    });
  });
  afterAll(() => t.close());

  const path = (projectId: string, id = pluginId) =>
    `/api/v1/projects/${projectId}/plugin-settings/${id}`;
  const put = (projectId: string, settings: Record<string, unknown>, id = pluginId) =>
    request(t.url)
      .put(path(projectId, id))
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ settings });
  const projectSecret = (projectId: string) =>
    t.app
      .get(InstalledPluginSecrets)
      .getProjectSecret(
        { pluginId, versionDigest: digest, projectId, eventId: 'e-1' },
        'region_token',
      );

  it('stores the values get-project-secret answers for that project, never returning a secret', async () => {
    const saved = await put(product.project_id, {
      region: 'eu',
      region_token: 'tok-eu-5f1c',
    }).expect(200);
    expect(saved.body).toEqual({
      data: {
        plugin_id: pluginId,
        project_id: product.project_id,
        settings: { region: 'eu' },
        secret_settings_set: ['region_token'],
      },
    });
    const read = await request(t.url)
      .get(path(product.project_id))
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(JSON.stringify(read.body)).not.toContain('tok-eu-5f1c');
    expect(await projectSecret(product.project_id)).toBe('tok-eu-5f1c');
    // Another project has no value: the plugin gets none for its events.
    expect(await projectSecret(other.project_id)).toBeUndefined();

    // An empty secret keeps the stored one; a new value replaces it.
    await put(product.project_id, { region: 'eu-2', region_token: '' }).expect(200);
    expect(await projectSecret(product.project_id)).toBe('tok-eu-5f1c');
    await put(product.project_id, { region: 'eu-2', region_token: 'tok-eu-rotated' }).expect(200);
    expect(await projectSecret(product.project_id)).toBe('tok-eu-rotated');
  });

  it('refuses settings that are not per-project settings of the plugin (400), nothing stored', async () => {
    for (const settings of [{ api_token: 'x' }, { enabled: true }, { region: 42 }, { nope: 'x' }]) {
      const res = await put(other.project_id, settings).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
    expect(await projectSecret(other.project_id)).toBeUndefined();
  });

  it('answers 404 for a plugin without per-project settings, a native channel or none', async () => {
    const plain = await installed({
      ...base,
      id: 'plain-enricher',
      capabilities: ['finding_enricher'],
      runtime: 'wasm',
      settings: [{ name: 'api_token', type: 'string', secret: true }],
      artifact_sha256: randomBytes(32).toString('hex'),
    });
    const channel = await installed(
      {
        ...base,
        id: 'some-channel',
        capabilities: ['notification_channel'],
        runtime: 'native',
        settings: [{ name: 'token', type: 'string', secret: true, per_project: true }],
        artifact_sha256: randomBytes(32).toString('hex'),
      },
      'native',
    );
    for (const id of [plain, channel, '00000000-0000-4000-8000-00000000e009']) {
      const res = await put(product.project_id, { region: 'x' }, id).expect(404);
      expect(res.body).toMatchObject({ code: 'installed_plugin_not_found' });
    }
  });
});
