import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The plugin administration audit log: who granted or withdrew a source's native permission,
 * installed, updated, enabled, disabled or reconfigured a plugin (secret values never appear).
 */
@Entity('plugin_audit_events')
@Index('ix_plugin_audit_events_at', ['at'])
export class PluginAuditEventEntity {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_plugin_audit_events_id',
  })
  id!: string;

  /** user | service_account | system */
  @Column({ type: 'varchar', length: 16 }) actorType!: string;
  @Column({ type: 'uuid', nullable: true }) actorId!: string | null;
  @Column({ type: 'text', nullable: true }) actorLabel!: string | null;

  @Column({ type: 'varchar', length: 64 }) action!: string;

  @Column({ type: 'uuid', nullable: true }) marketplaceId!: string | null;
  @Column({ type: 'uuid', nullable: true }) installedPluginId!: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" }) details!: Record<string, unknown>;

  @Column({ type: 'timestamptz', default: () => 'now()' }) at!: Date;
}
