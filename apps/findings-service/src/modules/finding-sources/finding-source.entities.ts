import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A node (host) a finding source reported on its last successful poll. */
@Entity('finding_source_nodes')
export class FindingSourceNodeEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_source_nodes' })
  installedPluginId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 200,
    primaryKeyConstraintName: 'PK_finding_source_nodes',
  })
  nodeKey!: string;

  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'uuid', nullable: true }) productId!: string | null;
  @Column({ type: 'text', nullable: true }) hostname!: string | null;
  @Column({ type: 'text', nullable: true }) ip!: string | null;
  @Column({ type: 'text', nullable: true }) os!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) attributes!: Record<string, string>;
  @Column({ type: 'timestamptz' }) firstSeenAt!: Date;
  @Column({ type: 'timestamptz' }) lastSeenAt!: Date;
}

/** Which node of which finding source a finding was seen on (its closure follows the node). */
@Entity('finding_source_links')
@Index('ix_finding_source_links_node', ['installedPluginId', 'nodeKey'])
export class FindingSourceLinkEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_source_links' })
  findingId!: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_source_links' })
  installedPluginId!: string;

  @Column({ type: 'varchar', length: 200 }) nodeKey!: string;
}

/** The last poll of a finding source: when, how it ended, what it changed. */
@Entity('finding_source_syncs')
export class FindingSourceSyncEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_source_syncs' })
  installedPluginId!: string;

  @Column({ type: 'timestamptz' }) startedAt!: Date;
  @Column({ type: 'timestamptz' }) finishedAt!: Date;
  /** `ok` or `failed`. */
  @Column({ type: 'varchar', length: 16 }) outcome!: string;
  /** `manual` (sync-now) or `schedule`. */
  @Column({ type: 'varchar', length: 16 }) trigger!: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) errorCode!: string | null;
  @Column({ type: 'text', nullable: true }) errorMessage!: string | null;
  @Column({ type: 'integer', default: 0 }) nodes!: number;
  @Column({ type: 'integer', default: 0 }) findingsSeen!: number;
  @Column({ type: 'integer', default: 0 }) findingsCreated!: number;
  @Column({ type: 'integer', default: 0 }) findingsClosed!: number;
  @Column({ type: 'integer', default: 0 }) nodesVanished!: number;
  @Column({ type: 'boolean', default: false }) reconciliationSkipped!: boolean;
  /** When the last successful poll finished (kept through failures). */
  @Column({ type: 'timestamptz', nullable: true }) lastSuccessAt!: Date | null;
}
