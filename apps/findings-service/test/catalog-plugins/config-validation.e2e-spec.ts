import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { buildPlugin, componentCacheDir } from '@platform/plugin-sdk/build';
import { publisherKey } from '@platform/plugin-protocol/testing';
import type { ServiceProcess } from '@platform/testing';
import { withDb } from '../support/findings-db';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  buildCatalogPlugin,
  startRunnerProcess,
  type SignedCatalogPlugin,
} from './support/catalog-plugin-lab';
import { seedInstalledPlugin } from './support/installed-plugin-seed';

// "A plugin validates its configuration at save" (docs/plugins/installation.md, "Configuration
// check"): the CMDB enricher declares config_validator and its own code, in the real runner,
// decides whether a save is stored; the CVE enricher does not declare it and saves as before.
const publisher = publisherKey();
// Real runner; a one-off load compiles a 12 MB component on a shared 2-core machine.
jest.setTimeout(180_000);

let runner: ServiceProcess | undefined;
let t: TestApp;
let admin: Login;
let cmdb: SignedCatalogPlugin;
let cve: SignedCatalogPlugin;
let stubborn: SignedCatalogPlugin;
let jira: SignedCatalogPlugin;
let jiraId: string;
let cmdbId: string;
let cveId: string;
let stubbornId: string;

/** The test plugin of fixtures/stubborn-validator, signed like a catalog plugin. */
async function buildStubborn(): Promise<SignedCatalogPlugin> {
  const out = await mkdtemp(join(tmpdir(), 'stubborn-validator-'));
  try {
    const built = await buildPlugin({
      sourceDir: join(__dirname, 'fixtures/stubborn-validator'),
      outDir: out,
      cacheDir: componentCacheDir(process.env),
      privateKeyPem: publisher.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    return { ...built, signature: built.signature ?? '' };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

const GOOD = {
  cmdb_base_url: 'https://bi.example.com',
  database_id: 2,
  servers_table_id: 41,
  column_to_tag_key: { Owner: 'owner' },
};

beforeAll(async () => {
  cmdb = await buildCatalogPlugin('cmdb-enricher', publisher.privateKey);
  cve = await buildCatalogPlugin('cve-enricher', publisher.privateKey);
  stubborn = await buildStubborn();
  jira = await buildCatalogPlugin('jira-provider', publisher.privateKey);
  // The `loop` check spins until the runner's call deadline: 3 s of a busy sandbox thread
  // instead of the default 10 s. The other checks answer in milliseconds.
  const started = await startRunnerProcess({ PLUGIN_RUNNER_CALL_TIMEOUT_MS: '3000' });
  runner = started.runner;
  t = await startTestApp({
    PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
    PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
  });
  admin = await loginAdmin(t);
  cmdbId = await seedInstalledPlugin(t, cmdb, {
    publicKeyPem: publisher.publicKeyPem,
    settings: GOOD,
    secrets: { api_token: 'stored-token' },
    enabled: false,
  });
  stubbornId = await seedInstalledPlugin(t, stubborn, {
    publicKeyPem: publisher.publicKeyPem,
    settings: { mode: 'accept' },
    enabled: false,
  });
  // The tracker's address at the installation (it permits the host); no credentials there.
  jiraId = await seedInstalledPlugin(t, jira, {
    publicKeyPem: publisher.publicKeyPem,
    settings: {
      base_url: 'https://jira.example.test',
      auth_method: 'basic',
      email: 'bot@example.test',
    },
    enabled: true,
  });
  cveId = await seedInstalledPlugin(t, cve, {
    publicKeyPem: publisher.publicKeyPem,
    settings: {},
    enabled: false,
  });
}, 4 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await t?.close();
  await runner?.stop();
});

const put = (id: string, body: object, language = 'en') =>
  request(t.url)
    .put(`/api/v1/admin/installed-plugins/${id}`)
    .set('Authorization', `Bearer ${admin.token}`)
    .set('Accept-Language', language)
    .send(body);

/** What a save may change: the stored row (settings, sealed secrets, state, time) and its audit. */
async function stored(id: string): Promise<Record<string, unknown>> {
  return withDb(t, async (db) => {
    const row = await db.query<Record<string, unknown>>(
      `SELECT settings, secret_settings, enabled, updated_at,
              (SELECT count(*)::int FROM plugin_audit_events a WHERE a.installed_plugin_id = p.id) AS audits
         FROM installed_plugins p WHERE id = $1`,
      [id],
    );
    return row.rows[0] ?? {};
  });
}

async function view(id: string): Promise<Record<string, unknown>> {
  const res = await request(t.url)
    .get(`/api/v1/admin/installed-plugins/${id}`)
    .set('Authorization', `Bearer ${admin.token}`)
    .expect(200);
  return (res.body as { data: Record<string, unknown> }).data;
}

describe("a project's ticket provider settings are checked by the provider, with the project's secrets", () => {
  const putProject = (projectId: string, settings: Record<string, unknown>) =>
    request(t.url)
      .put(`/api/v1/projects/${projectId}/ticket-provider/config`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ plugin_id: jiraId, settings });
  const projectConfig = async (projectId: string) =>
    (
      (
        await request(t.url)
          .get(`/api/v1/projects/${projectId}/ticket-provider/config`)
          .set('Authorization', `Bearer ${admin.token}`)
          .expect(200)
      ).body as { data: Record<string, unknown> }
    ).data;

  it("refuses what the provider rejects (422, per settings.<name>), nothing stored; the project's own token satisfies get-secret, a stored one is kept", async () => {
    const project = await request(t.url)
      .post('/api/v1/projects')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ name: `ticket-check-${Date.now()}` })
      .expect(201);
    const projectId = (project.body as { data: { id: string } }).data.id;

    // Basic authentication with no token at the installation nor at the project.
    const missing = await putProject(projectId, { project_key: 'OPS' }).expect(422);
    expect(missing.body).toMatchObject({
      code: 'plugin_config_invalid',
      fields: [{ field: 'settings.api_token', problems: ['is required for basic authentication'] }],
    });
    expect(await projectConfig(projectId)).toMatchObject({ plugin_id: null });

    // The provider's own checks of the merged settings (the route's type check passes them).
    const malformed = await putProject(projectId, {
      project_key: 'OPS',
      api_token: 'project-token-1',
      auth_method: 'kerberos',
      extra_fields: '{not json',
    }).expect(422);
    expect(malformed.body.code).toBe('plugin_config_invalid');
    expect(malformed.body.fields).toEqual([
      { field: 'settings.extra_fields', problems: ['is not valid JSON'] },
      { field: 'settings.auth_method', problems: ['must be one of basic, oauth'] },
    ]);
    expect(JSON.stringify(malformed.body)).not.toContain('project-token-1');
    expect(await projectConfig(projectId)).toMatchObject({ plugin_id: null });

    // The project's token is what get-secret answers: accepted and stored (sealed).
    await putProject(projectId, { project_key: 'OPS', api_token: 'project-token-1' }).expect(200);
    expect(await projectConfig(projectId)).toMatchObject({
      plugin_id: jiraId,
      settings: { project_key: 'OPS' },
      secret_settings_set: ['api_token'],
    });
    // A PUT that leaves the token out keeps the stored one, and the check sees it.
    await putProject(projectId, { project_key: 'SEC', labels: 'security' }).expect(200);
    // Switching to oauth without its credentials is refused; the stored configuration stays.
    const oauth = await putProject(projectId, { project_key: 'SEC', auth_method: 'oauth' }).expect(
      422,
    );
    expect(oauth.body.fields).toEqual([
      { field: 'settings.client_id', problems: ['is required for oauth'] },
      { field: 'settings.client_secret', problems: ['is required for oauth'] },
    ]);
    expect(await projectConfig(projectId)).toMatchObject({
      settings: { project_key: 'SEC', labels: 'security' },
      secret_settings_set: ['api_token'],
    });
  });
});

describe('a plugin validates its configuration at save, through the runner', () => {
  it('refuses settings the plugin rejects with its own messages per setting (422), nothing stored', async () => {
    const before = await stored(cmdbId);
    // Every value passes the service's schema check (integer, json); the plugin refuses them.
    const res = await put(cmdbId, {
      settings: { database_id: -3, servers_table_id: 0, column_to_tag_key: { owner: '!!!' } },
    }).expect(422);
    expect(res.body).toMatchObject({ code: 'plugin_config_invalid' });
    expect(res.body.error).toContain('the plugin refused this configuration, nothing was saved');
    expect(res.body.error).toContain('database_id: must be a positive integer');
    expect(res.body.fields).toEqual([
      { field: 'database_id', problems: ['must be a positive integer'] },
      { field: 'servers_table_id', problems: ['must be a positive integer'] },
      {
        field: 'column_to_tag_key',
        problems: [expect.stringContaining('the tag key of column "owner"')],
      },
    ]);
    const ru = await put(cmdbId, { settings: { database_id: -3 } }, 'ru').expect(422);
    expect(ru.body.error).toBe(
      'плагин отклонил эту конфигурацию, ничего не сохранено: database_id: must be a positive integer',
    );
    expect(await stored(cmdbId)).toEqual(before);
    expect((await view(cmdbId))['settings']).toEqual(GOOD);
  });

  it('gives the plugin the candidate secrets: removing the API key is refused, the stored one kept', async () => {
    const before = await stored(cmdbId);
    const res = await put(cmdbId, { secret_settings: { api_token: null } }).expect(422);
    expect(res.body.fields).toEqual([
      { field: 'api_token', problems: ['the API key is required'] },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('stored-token');
    expect(await stored(cmdbId)).toEqual(before);
    expect((await view(cmdbId))['secret_settings_set']).toEqual(['api_token']);
  });

  it('stores a configuration the plugin accepts, disabled (a one-off load) and enabled', async () => {
    const accepted = await put(cmdbId, {
      settings: { database_id: 7, cmdb_base_url: 'http://127.0.0.1:9' },
      secret_settings: { api_token: 'new-token' },
    }).expect(200);
    expect((accepted.body as { data: Record<string, unknown> }).data).toMatchObject({
      enabled: false,
      settings: { ...GOOD, database_id: 7, cmdb_base_url: 'http://127.0.0.1:9' },
    });

    await request(t.url)
      .post(`/api/v1/admin/installed-plugins/${cmdbId}/enable`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    const before = await stored(cmdbId);
    const refused = await put(cmdbId, { settings: { servers_table_id: -1 } }).expect(422);
    expect(refused.body.fields).toEqual([
      { field: 'servers_table_id', problems: ['must be a positive integer'] },
    ]);
    expect(await stored(cmdbId)).toEqual(before);
    await put(cmdbId, { settings: { servers_table_id: 42 } }).expect(200);
    expect((await view(cmdbId))['settings']).toMatchObject({ servers_table_id: 42 });
  });

  it('refuses the save when the check itself fails: past its deadline, a trap; a problem of the whole configuration', async () => {
    const before = await stored(stubbornId);
    const late = await put(stubbornId, { settings: { mode: 'loop' } }).expect(422);
    expect(late.body).toMatchObject({ code: 'plugin_config_check_failed' });
    expect(late.body.error).toContain('the plugin could not check this configuration');
    expect(late.body.error).toContain('deadline_exceeded');
    const trapped = await put(stubbornId, { settings: { mode: 'refuse' } }).expect(422);
    expect(trapped.body).toMatchObject({ code: 'plugin_config_check_failed' });
    expect(trapped.body.error).toContain('trap');
    const whole = await put(stubbornId, { settings: { mode: 'problems' } }).expect(422);
    expect(whole.body).toMatchObject({
      code: 'plugin_config_invalid',
      fields: [{ field: 'settings', problems: ['the whole configuration is wrong'] }],
    });
    expect(await stored(stubbornId)).toEqual(before);
    await put(stubbornId, { settings: { mode: 'fine' } }).expect(200);
  });

  it('a plugin without the capability saves as before; with the runner gone a checked save is refused (503), the other not', async () => {
    await put(cveId, { settings: { max_affected_products: -5 } }).expect(200);
    expect((await view(cveId))['settings']).toEqual({ max_affected_products: -5 });

    await runner?.stop();
    runner = undefined;
    const before = await stored(cmdbId);
    const res = await put(cmdbId, { settings: { database_id: 8 } }).expect(503);
    expect(res.body.code).toBe('plugin_runner_unavailable');
    expect(await stored(cmdbId)).toEqual(before);
    await put(cveId, { settings: { max_affected_products: 3 } }).expect(200);
  });
});
