import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A project's settings of one channel plugin (common and per-channel fields; secrets sealed). */
@Entity('project_channel_configs')
export class ProjectChannelConfigEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_project_channel_configs' })
  projectId!: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_project_channel_configs' })
  installedPluginId!: string;

  /** Non-secret settings (`enabled`, `min_severity`, ..., the channel's addressing fields). */
  @Column({ type: 'jsonb', default: () => "'{}'" }) settings!: Record<string, unknown>;
  /** Secret-marked settings, one JSON object sealed like installation secrets (PluginSecretBox). */
  @Column({ type: 'text', nullable: true }) secretSettings!: string | null;
  /** `api` (PUT config) or `backfill` (moved from the core's settings). */
  @Column({ type: 'varchar', length: 16 }) origin!: string;
  @Column({ type: 'timestamptz' }) updatedAt!: Date;
}

/**
 * The core's own channel settings of releases before 0.33 ("old channel settings columns are
 * kept"): one row per project and channel kind, read only by the backfill
 * (docs/plugins/channels.md).
 */
@Entity('legacy_channel_settings')
export class LegacyChannelSettingsEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_legacy_channel_settings' })
  projectId!: string;

  /** `mattermost` or `maxru`. */
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_legacy_channel_settings',
  })
  channel!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" }) settings!: Record<string, unknown>;
  /** The secret address (`webhook_url` / `access_token`) sealed with the plugin secrets' key. */
  @Column({ type: 'text', nullable: true }) secretSettings!: string | null;
  @Column({ type: 'timestamptz' }) updatedAt!: Date;
}
