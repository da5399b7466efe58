import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { PluginSecretBox } from '../../src/modules/plugins/installed-plugins/plugin-secret-box';
import { withDb } from '../support/findings-db';
import { freshProduct } from '../support/findings-seed';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Uninstall - DELETE /api/v1/admin/installed-plugins/{id} and DELETE
 * /api/v1/admin/plugin-marketplaces/{id} (docs/plugins/uninstall.md): the installation goes
 * with its settings, sealed secrets, every project's settings and unused artifact bytes; a
 * source goes only when nothing installed comes from it; the official source stays.
 */
describe('Uninstall - installations and catalog sources (DELETE)', () => {
  let t: TestApp;
  let admin: Login;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const api = (method: 'get' | 'delete', path: string) =>
    request(t.url)[method](path).set('Authorization', `Bearer ${admin.token}`);

  async function source(): Promise<string> {
    const res = await request(t.url)
      .post('/api/v1/admin/plugin-marketplaces')
      .set('Authorization', `Bearer ${admin.token}`)
      .send({
        name: `source ${randomBytes(4).toString('hex')}`,
        catalog_url: 'https://c.example/x',
      })
      .expect(201);
    return (res.body as { data: { id: string } }).data.id;
  }

  /** An installation (from `sourceId` or sideloaded) with a secret and a project's settings. */
  async function installed(options: { sourceId?: string; enabled?: boolean; projectId?: string }) {
    const id = `plugin-${randomBytes(4).toString('hex')}`;
    const digest = randomBytes(32).toString('hex');
    const manifest = Buffer.from(
      JSON.stringify({
        id,
        version: '1.0.0',
        capabilities: ['notification_channel'],
        runtime: 'native',
        wit_version: '0.1.0',
        min_service_version: '>=0.33',
        allowed_hosts: [],
        settings: [{ name: 'token', type: 'string', secret: true, per_project: true }],
        artifact_sha256: digest,
      }),
    );
    const box = new PluginSecretBox(t.config);
    return withDb(t, async (db) => {
      await db.query(`INSERT INTO plugin_artifacts (digest, content, size) VALUES ($1, $2, 3)`, [
        digest,
        Buffer.from('abc'),
      ]);
      const row = await db.query<{ id: string }>(
        `INSERT INTO installed_plugins (source_type, marketplace_id, catalog_plugin_id, runtime,
                enabled, version, artifact_sha256, manifest, capabilities, secret_settings)
         VALUES ($1, $2, $3, 'native', $4, '1.0.0', $5, $6, '{notification_channel}', $7)
         RETURNING id`,
        [
          options.sourceId ? 'marketplace' : 'sideload',
          options.sourceId ?? null,
          id,
          options.enabled ?? false,
          digest,
          manifest,
          box.seal({ token: 'installation-secret' }),
        ],
      );
      const pluginId = row.rows[0]?.id as string;
      if (options.projectId) {
        await db.query(
          `INSERT INTO project_channel_configs (project_id, installed_plugin_id, settings,
                  secret_settings, origin, updated_at)
           VALUES ($1, $2, '{}', $3, 'api', now())`,
          [options.projectId, pluginId, box.seal({ token: 'project-secret' })],
        );
      }
      return { pluginId, digest };
    });
  }

  const count = (sql: string, params: unknown[]) =>
    withDb(t, async (db) => Number((await db.query<{ n: string }>(sql, params)).rows[0]?.n));

  it('removes an installation with its secrets, its project settings and its artifact, audited', async () => {
    const product = await freshProduct(t, admin);
    const { pluginId, digest } = await installed({ enabled: true, projectId: product.project_id });
    await api('get', `/api/v1/admin/installed-plugins/${pluginId}`).expect(200);

    // Enabled: unloaded (no runner here: the unload failure is logged, not answered).
    await api('delete', `/api/v1/admin/installed-plugins/${pluginId}`).expect(204);

    const gone = await api('get', `/api/v1/admin/installed-plugins/${pluginId}`).expect(404);
    expect(gone.body).toMatchObject({ code: 'installed_plugin_not_found' });
    expect(
      await count(
        `SELECT count(*) AS n FROM project_channel_configs WHERE installed_plugin_id = $1`,
        [pluginId],
      ),
    ).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM plugin_artifacts WHERE digest = $1`, [digest]),
    ).toBe(0);
    const audit = await withDb(t, (db) =>
      db.query<{ action: string; details: Record<string, unknown> }>(
        `SELECT action, details FROM plugin_audit_events WHERE installed_plugin_id = $1`,
        [pluginId],
      ),
    );
    expect(audit.rows).toEqual([
      {
        action: 'plugin.uninstalled',
        details: expect.objectContaining({ version: '1.0.0', was_enabled: true }) as unknown,
      },
    ]);
    // Twice: the second finds nothing.
    const again = await api('delete', `/api/v1/admin/installed-plugins/${pluginId}`).expect(404);
    expect(again.body).toMatchObject({ code: 'installed_plugin_not_found' });
  });

  it('keeps artifact bytes another installation still uses', async () => {
    const first = await installed({});
    const second = await installed({});
    await withDb(t, (db) =>
      db.query(`UPDATE installed_plugins SET artifact_sha256 = $1 WHERE id = $2`, [
        first.digest,
        second.pluginId,
      ]),
    );
    await api('delete', `/api/v1/admin/installed-plugins/${first.pluginId}`).expect(204);
    expect(
      await count(`SELECT count(*) AS n FROM plugin_artifacts WHERE digest = $1`, [first.digest]),
    ).toBe(1);
  });

  it('removes a catalog source only when nothing installed comes from it', async () => {
    const sourceId = await source();
    const { pluginId } = await installed({ sourceId });

    const refused = await api('delete', `/api/v1/admin/plugin-marketplaces/${sourceId}`).expect(
      409,
    );
    expect(refused.body).toMatchObject({
      code: 'conflict',
      details: { reason: 'plugin_source_in_use' },
    });
    await api('get', `/api/v1/admin/plugin-marketplaces/${sourceId}`).expect(200);

    await api('delete', `/api/v1/admin/installed-plugins/${pluginId}`).expect(204);
    await api('delete', `/api/v1/admin/plugin-marketplaces/${sourceId}`).expect(204);
    const gone = await api('get', `/api/v1/admin/plugin-marketplaces/${sourceId}`).expect(404);
    expect(gone.body).toMatchObject({ code: 'plugin_source_not_found' });
    const audit = await withDb(t, (db) =>
      db.query<{ action: string }>(
        `SELECT action FROM plugin_audit_events WHERE marketplace_id = $1 ORDER BY id`,
        [sourceId],
      ),
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'marketplace.created',
      'plugin.uninstalled',
      'marketplace.deleted',
    ]);
  });

  it('keeps the official source (registered again at every start): deactivate it instead', async () => {
    const list = await api('get', '/api/v1/admin/plugin-marketplaces').expect(200);
    const official = (list.body as { data: { id: string; official: boolean }[] }).data.find(
      (s) => s.official,
    );
    expect(official).toBeDefined();
    const refused = await api(
      'delete',
      `/api/v1/admin/plugin-marketplaces/${String(official?.id)}`,
    ).expect(409);
    expect(refused.body).toMatchObject({
      code: 'conflict',
      details: { reason: 'official_source' },
    });
  });
});
