import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { PluginCapability, PluginRuntime } from '@platform/plugin-sdk';
import { PluginSourceEntity } from '../marketplaces/plugin-source.entity';

export const PLUGIN_SOURCE_TYPES = ['marketplace', 'sideload'] as const;
export type PluginSourceType = (typeof PLUGIN_SOURCE_TYPES)[number];

/**
 * A version found in the catalog (or uploaded) that widens the installed capabilities: held
 * here, not applied, until `acknowledge-capability-change` (docs/plugins/installation.md).
 */
export interface PendingPluginVersion {
  version: string;
  artifact_sha256: string;
  /** The exact signed manifest bytes, base64. */
  manifest: string;
  /** Base64 Ed25519 signature over the manifest; null from an unsigned source. */
  signature: string | null;
  capabilities: PluginCapability[];
  /** Capabilities the installed version lacks. */
  added_capabilities: PluginCapability[];
  runtime: PluginRuntime;
  held_at: string;
}

/**
 * One installed plugin. The id is also the plugin id in the runner. `settings` holds the
 * non-secret settings; `secret_settings` the secret-marked ones, AES-256-GCM encrypted as one
 * JSON object (PLUGIN_SECRETS_KEY). Disabled installations are not loaded in the runner.
 */
@Entity('installed_plugins')
@Index('uq_installed_plugins_catalog_plugin_id', ['catalogPluginId'], { unique: true })
export class InstalledPluginEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_installed_plugins_id' })
  id!: string;

  @Column({ type: 'varchar', length: 16 }) sourceType!: PluginSourceType;

  @ManyToOne(() => PluginSourceEntity, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({
    name: 'marketplace_id',
    foreignKeyConstraintName: 'FK_installed_plugins_marketplace_id',
  })
  marketplace?: PluginSourceEntity | null;

  @Column({ type: 'uuid', nullable: true }) marketplaceId!: string | null;

  /** The manifest's `id`. */
  @Column({ type: 'varchar', length: 100 }) catalogPluginId!: string;

  @Column({ type: 'varchar', length: 8 }) runtime!: PluginRuntime;

  @Column({ type: 'boolean', default: false }) enabled!: boolean;

  @Column({ type: 'varchar', length: 64 }) version!: string;

  @Column({ type: 'char', length: 64 }) artifactSha256!: string;

  /** The exact manifest bytes the publisher signed. */
  @Column({ type: 'bytea' }) manifest!: Buffer;

  /** Base64 Ed25519 signature over `manifest`; null when the source is unsigned. */
  @Column({ type: 'text', nullable: true }) signature!: string | null;

  @Column({ type: 'text', array: true }) capabilities!: PluginCapability[];

  @Column({ type: 'jsonb', default: () => "'{}'" }) settings!: Record<string, unknown>;

  /** Sealed JSON object of the secret-marked settings; null when none is set. */
  @Column({ type: 'text', nullable: true }) secretSettings!: string | null;

  @Column({ type: 'jsonb', nullable: true }) pendingVersion!: PendingPluginVersion | null;

  @Column({ type: 'uuid', nullable: true }) installedByUserId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
