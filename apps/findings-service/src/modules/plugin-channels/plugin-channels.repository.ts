import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface StoredChannelConfig {
  settings: Record<string, unknown>;
  secretSettings: string | null;
}

export interface BackfillCounts {
  moved: number;
  skipped: number;
  alreadyConfigured: number;
}

/** Per-project channel settings and the core's old channel settings (set-based backfill). */
@Injectable()
export class PluginChannelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async configs(projectId: string): Promise<Map<string, StoredChannelConfig>> {
    const rows = (await this.dataSource.query(
      `SELECT installed_plugin_id, settings, secret_settings FROM project_channel_configs
        WHERE project_id = $1`,
      [projectId],
    )) as {
      installed_plugin_id: string;
      settings: Record<string, unknown>;
      secret_settings: string | null;
    }[];
    return new Map(
      rows.map((r) => [
        r.installed_plugin_id,
        { settings: r.settings, secretSettings: r.secret_settings },
      ]),
    );
  }

  /** Every project's settings of an installation that is being uninstalled. */
  async deleteForPlugin(manager: EntityManager, pluginId: string): Promise<void> {
    await manager.query(`DELETE FROM project_channel_configs WHERE installed_plugin_id = $1`, [
      pluginId,
    ]);
  }

  async config(projectId: string, pluginId: string): Promise<StoredChannelConfig | null> {
    return (await this.configs(projectId)).get(pluginId) ?? null;
  }

  async save(
    projectId: string,
    pluginId: string,
    settings: Record<string, unknown>,
    secretSettings: string | null,
    at: Date,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO project_channel_configs (project_id, installed_plugin_id, settings, secret_settings, origin, updated_at)
       VALUES ($1, $2, $3, $4, 'api', $5)
       ON CONFLICT (project_id, installed_plugin_id) DO UPDATE SET settings = EXCLUDED.settings,
         secret_settings = EXCLUDED.secret_settings, origin = 'api', updated_at = EXCLUDED.updated_at`,
      [projectId, pluginId, JSON.stringify(settings), secretSettings, at],
    );
  }

  async projectExists(projectId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM projects WHERE id = $1`, [
      projectId,
    ])) as unknown[];
    return rows.length > 0;
  }

  /**
   * The backfill of one channel kind into the plugin `pluginId`, in one statement: a project
   * whose old settings carry the channel's address (`required` non-secret keys present and a
   * sealed secret) and that has no config for the plugin yet is moved (settings and sealed
   * secret copied as they are); one that has a config is already configured; the rest are
   * skipped. `perform` false: counts only (dry run).
   */
  async backfill(
    channel: string,
    pluginId: string,
    required: string[],
    perform: boolean,
    at: Date,
  ): Promise<BackfillCounts> {
    const rows = (await this.dataSource.query(
      `WITH legacy AS (
         SELECT l.project_id, l.settings, l.secret_settings,
                EXISTS (SELECT 1 FROM project_channel_configs c
                         WHERE c.project_id = l.project_id AND c.installed_plugin_id = $2) AS configured,
                (l.secret_settings IS NOT NULL AND l.settings ?& $3::text[]) AS movable
           FROM legacy_channel_settings l JOIN projects p ON p.id = l.project_id
          WHERE l.channel = $1
       ), moved AS (
         INSERT INTO project_channel_configs (project_id, installed_plugin_id, settings, secret_settings, origin, updated_at)
         SELECT project_id, $2, settings, secret_settings, 'backfill', $5 FROM legacy
          WHERE $4 AND movable AND NOT configured
         ON CONFLICT (project_id, installed_plugin_id) DO NOTHING
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM legacy WHERE movable AND NOT configured)::int AS moved,
              (SELECT count(*) FROM legacy WHERE NOT movable AND NOT configured)::int AS skipped,
              (SELECT count(*) FROM legacy WHERE configured)::int AS already_configured,
              (SELECT count(*) FROM moved)::int AS inserted`,
      [channel, pluginId, required, perform, at],
    )) as { moved: number; skipped: number; already_configured: number; inserted: number }[];
    const row = rows[0];
    return {
      moved: perform ? (row?.inserted ?? 0) : (row?.moved ?? 0),
      skipped: row?.skipped ?? 0,
      alreadyConfigured: row?.already_configured ?? 0,
    };
  }
}
