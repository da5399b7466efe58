import request from 'supertest';
import { HostCallDenied } from '../../src/modules/plugin-runner-client/host-call-ports';
import { InstalledPluginSecrets } from '../../src/modules/plugins/installed-plugins/installed-plugin-secrets';
import { PluginSecretBox } from '../../src/modules/plugins/installed-plugins/plugin-secret-box';
import { bearer, createProject } from '../support/catalog';
import { withDb } from '../support/findings-db';
import { freshLogin, freshMember } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/** A native channel plugin row as the install lifecycle stores it (config routes load nothing). */
async function seedChannel(
  t: TestApp,
  catalogId: string,
  settings: { name: string; type: string; secret?: boolean; per_project?: boolean }[],
): Promise<string> {
  const manifest = Buffer.from(
    JSON.stringify({
      id: catalogId,
      version: '1.0.1',
      capabilities: ['notification_channel'],
      runtime: 'native',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: [],
      settings,
      artifact_sha256: 'a'.repeat(64),
    }),
  );
  return withDb(t, async (db) => {
    const res = await db.query<{ id: string }>(
      `INSERT INTO installed_plugins (source_type, catalog_plugin_id, runtime, enabled, version,
              artifact_sha256, manifest, capabilities)
       VALUES ('sideload', $1, 'native', true, '1.0.1', $2, $3, '{notification_channel}')
       RETURNING id`,
      [catalogId, 'a'.repeat(64), manifest],
    );
    return res.rows[0]?.id as string;
  });
}

let t: TestApp;
let admin: Login;
let projectId: string;
let maxru: string;
let projectAdmin: Login;

beforeAll(async () => {
  t = await startTestApp();
  admin = await loginAdmin(t);
  projectId = (await createProject(t, bearer(admin))).id;
  maxru = await seedChannel(t, 'maxru-channel', [
    { name: 'chat_id', type: 'string', per_project: true },
    { name: 'access_token', type: 'string', secret: true, per_project: true },
    { name: 'base_url', type: 'url', per_project: true },
    { name: 'api_base', type: 'url' },
  ]);
  projectAdmin = await freshMember(t, admin, projectId, 'admin');
});
afterAll(() => t.close());

const put = (who: Login, settings: Record<string, unknown>, project = projectId) =>
  request(t.url)
    .put(`/api/v1/projects/${project}/plugin-channels/${maxru}/config`)
    .set('Authorization', `Bearer ${who.token}`)
    .send({ settings });
const get = (who: Login, project = projectId) =>
  request(t.url)
    .get(`/api/v1/projects/${project}/plugin-channels/${maxru}/config`)
    .set('Authorization', `Bearer ${who.token}`);

describe('channel plugins per project', () => {
  it('lists the enabled channels with the project’s state', async () => {
    const res = await request(t.url)
      .get(`/api/v1/projects/${projectId}/plugin-channels`)
      .set('Authorization', `Bearer ${projectAdmin.token}`)
      .expect(200);
    expect(res.body.data).toEqual([
      {
        plugin_id: maxru,
        catalog_plugin_id: 'maxru-channel',
        version: '1.0.1',
        configured: false,
        enabled: false,
        // Only the per-project settings (the installation-wide `api_base` is not the project's).
        settings_schema: [
          { name: 'chat_id', type: 'string', required: false, secret: false, per_project: true },
          {
            name: 'access_token',
            type: 'string',
            required: false,
            secret: true,
            per_project: true,
          },
          { name: 'base_url', type: 'url', required: false, secret: false, per_project: true },
        ],
        // Nothing was delivered yet: the summary of the project's deliveries is all zero.
        delivery: {
          pending: 0,
          delivered_24h: 0,
          failed_24h: 0,
          last_failure_at: null,
          last_failure_message: null,
        },
      },
    ]);
  });

  it('saves settings with manage_notifications; secrets are never returned and not erased by an empty value', async () => {
    const saved = await put(projectAdmin, {
      enabled: true,
      min_severity: 'HIGH',
      notify_on_close: true,
      chat_id: '-100123',
      access_token: 'max-secret-token-1',
    }).expect(200);
    expect(saved.body.data).toEqual({
      plugin_id: maxru,
      project_id: projectId,
      settings: { enabled: true, min_severity: 'HIGH', notify_on_close: true, chat_id: '-100123' },
      secret_settings_set: ['access_token'],
    });
    const again = await put(projectAdmin, {
      enabled: true,
      min_severity: 'CRITICAL',
      chat_id: '-100123',
      access_token: '',
    }).expect(200);
    expect(again.body.data.secret_settings_set).toEqual(['access_token']);
    const read = await get(projectAdmin).expect(200);
    expect(JSON.stringify(read.body)).not.toContain('max-secret-token-1');
    // Stored sealed, and the value is the first one.
    const stored = await withDb(t, (db) =>
      db.query<{ secret_settings: string }>(
        `SELECT secret_settings FROM project_channel_configs WHERE project_id = $1`,
        [projectId],
      ),
    );
    const sealed = stored.rows[0]?.secret_settings ?? '';
    expect(sealed).not.toContain('max-secret-token-1');
    expect(new PluginSecretBox(t.config).open(sealed)).toEqual({
      access_token: 'max-secret-token-1',
    });
    const list = await request(t.url)
      .get(`/api/v1/projects/${projectId}/plugin-channels`)
      .set('Authorization', `Bearer ${projectAdmin.token}`)
      .expect(200);
    expect(list.body.data[0]).toMatchObject({ configured: true, enabled: true });
  });

  it('answers the runner’s get-project-secret from the event project’s settings, per-project secrets only', async () => {
    const secrets = t.app.get(InstalledPluginSecrets);
    const context = (project: string) => ({
      pluginId: maxru,
      versionDigest: 'a'.repeat(64),
      projectId: project,
      eventId: 'event-1',
    });
    expect(await secrets.getProjectSecret(context(projectId), 'access_token')).toBe(
      'max-secret-token-1',
    );
    const other = (await createProject(t, bearer(admin))).id;
    expect(await secrets.getProjectSecret(context(other), 'access_token')).toBeUndefined();
    await expect(secrets.getProjectSecret(context(projectId), 'chat_id')).rejects.toBeInstanceOf(
      HostCallDenied,
    );
    await expect(
      secrets.getProjectSecret(
        { ...context(projectId), versionDigest: 'b'.repeat(64) },
        'access_token',
      ),
    ).rejects.toBeInstanceOf(HostCallDenied);
  });

  it('refuses unknown settings and wrong types (400), writers without manage_notifications (403), strangers (404)', async () => {
    const bad = await put(projectAdmin, { chat_idx: '1', min_severity: 'URGENT' }).expect(400);
    expect(bad.body.code).toBe('validation_failed');
    const analyst = await freshMember(t, admin, projectId, 'analyst');
    expect((await put(analyst, { enabled: false }).expect(403)).body.code).toBe('access_denied');
    const viewer = await freshMember(t, admin, projectId, 'viewer');
    await get(viewer).expect(200);
    const stranger = await freshLogin(t, admin);
    expect((await get(stranger).expect(404)).body.code).toBe('project_not_found');
    expect((await put(stranger, { enabled: false }).expect(404)).body.code).toBe(
      'project_not_found',
    );
    const other = await request(t.url)
      .get(
        `/api/v1/projects/${projectId}/plugin-channels/00000000-0000-4000-8000-00000000c001/config`,
      )
      .set('Authorization', `Bearer ${projectAdmin.token}`)
      .expect(404);
    expect(other.body.code).toBe('channel_plugin_not_found');
  });
});

describe('POST /api/v1/admin/maintenance/channel-config-backfill', () => {
  const backfill = (query: string) =>
    request(t.url)
      .post(`/api/v1/admin/maintenance/channel-config-backfill${query}`)
      .set('Authorization', `Bearer ${admin.token}`);

  it('counts in a dry run, moves with mode=final, and skips configured projects separately', async () => {
    const box = new PluginSecretBox(t.config);
    const movable = (await createProject(t, bearer(admin))).id;
    const noAddress = (await createProject(t, bearer(admin))).id;
    await withDb(t, async (db) => {
      await db.query(
        `INSERT INTO legacy_channel_settings (project_id, channel, settings, secret_settings, updated_at)
         VALUES ($1, 'maxru', $2, $3, now()), ($4, 'maxru', $5, NULL, now()), ($6, 'maxru', $7, $8, now()),
                ($1, 'mattermost', '{}', $3, now())`,
        [
          movable,
          JSON.stringify({ enabled: true, min_severity: 'MEDIUM', chat_id: '-777' }),
          box.seal({ access_token: 'legacy-token' }),
          noAddress,
          JSON.stringify({ enabled: true }),
          projectId,
          JSON.stringify({ enabled: false, chat_id: '-1' }),
          box.seal({ access_token: 'old' }),
        ],
      );
    });
    const dry = await backfill('?channel=maxru').expect(200);
    expect(dry.body.data).toEqual({
      channel: 'maxru',
      mode: 'dry-run',
      plugin_id: maxru,
      moved: 1,
      skipped: 1,
      already_configured: 1,
    });
    const count = () =>
      withDb(t, (db) =>
        db.query<{ n: number }>(`SELECT count(*)::int AS n FROM project_channel_configs`),
      );
    expect((await count()).rows[0]?.n).toBe(1);

    const final = await backfill('?channel=maxru&mode=final').expect(200);
    expect(final.body.data).toMatchObject({
      mode: 'final',
      moved: 1,
      skipped: 1,
      already_configured: 1,
    });
    const moved = await request(t.url)
      .get(`/api/v1/projects/${movable}/plugin-channels/${maxru}/config`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect(moved.body.data).toEqual({
      plugin_id: maxru,
      project_id: movable,
      settings: { enabled: true, min_severity: 'MEDIUM', chat_id: '-777' },
      secret_settings_set: ['access_token'],
    });
    // The project configured through the API kept its own settings.
    expect((await get(projectAdmin).expect(200)).body.data.settings.chat_id).toBe('-100123');

    const repeat = await backfill('?channel=maxru&mode=final').expect(200);
    expect(repeat.body.data).toMatchObject({ moved: 0, skipped: 1, already_configured: 2 });
  });

  it('refuses an unknown channel or mode (400) and a channel whose plugin is not installed (422)', async () => {
    await backfill('?channel=slack').expect(400);
    await backfill('?channel=maxru&mode=now').expect(400);
    await backfill('').expect(400);
    const missing = await backfill('?channel=mattermost').expect(422);
    expect(missing.body.code).toBe('channel_plugin_not_installed');
  });
});
