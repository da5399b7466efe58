import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What the sender reads of one installation and one project's configuration of it. */
export interface MailChannelRow {
  artifactSha256: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  secretSettings: string | null;
  projectSettings: Record<string, unknown> | null;
  projectSecretSettings: string | null;
}

/** Reads (never writes) the installation and the project's channel settings for a send. */
@Injectable()
export class MailSettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async load(pluginId: string, projectId: string): Promise<MailChannelRow | null> {
    const rows = (await this.dataSource.query(
      `SELECT p.artifact_sha256, p.enabled, p.settings, p.secret_settings,
              c.settings AS project_settings, c.secret_settings AS project_secret_settings
         FROM installed_plugins p
         LEFT JOIN project_channel_configs c
           ON c.installed_plugin_id = p.id AND c.project_id = $2
        WHERE p.id = $1`,
      [pluginId, projectId],
    )) as {
      artifact_sha256: string;
      enabled: boolean;
      settings: Record<string, unknown>;
      secret_settings: string | null;
      project_settings: Record<string, unknown> | null;
      project_secret_settings: string | null;
    }[];
    const row = rows[0];
    if (!row) return null;
    return {
      artifactSha256: row.artifact_sha256,
      enabled: row.enabled,
      settings: row.settings ?? {},
      secretSettings: row.secret_settings,
      projectSettings: row.project_settings,
      projectSecretSettings: row.project_secret_settings,
    };
  }
}
