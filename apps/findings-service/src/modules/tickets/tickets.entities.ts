import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { FindingEntity } from '../findings/finding.entity';
import { InstalledPluginEntity } from '../plugins/installed-plugins/installed-plugin.entity';
import { ProjectEntity } from '../projects/project.entity';

/**
 * Tables of tickets in an external tracker (docs/findings-service/tickets.md). Only this
 * module's repositories write them.
 */

export const TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_ORIGINS = ['created', 'group', 'linked', 'backfill'] as const;
export type TicketOrigin = (typeof TICKET_ORIGINS)[number];
export const TRACKER_CLOSED_ACTIONS = ['none', 'mark_fixed'] as const;
export type TrackerClosedAction = (typeof TRACKER_CLOSED_ACTIONS)[number];

/** One task in a tracker that the service knows (created, linked or found by its label). */
@Entity('tickets')
@Unique('UQ_tickets_task', ['installedPluginId', 'taskId'])
@Index('IX_tickets_sync_requested', ['syncRequestedAt'], {
  where: '"sync_requested_at" IS NOT NULL',
})
export class TicketEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_tickets' })
  id!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_tickets_project' })
  project?: ProjectEntity;
  @Index('IX_tickets_project')
  @Column({ type: 'uuid' })
  projectId!: string;

  /** Uninstalling the provider removes its tickets (the tasks stay in the tracker). */
  @ManyToOne(() => InstalledPluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'installed_plugin_id',
    foreignKeyConstraintName: 'FK_tickets_installed_plugin',
  })
  installedPlugin?: InstalledPluginEntity;
  @Column({ type: 'uuid' }) installedPluginId!: string;

  @Column({ type: 'varchar', length: 200 }) taskId!: string;
  @Column({ type: 'varchar', length: 200 }) taskKey!: string;
  @Column({ type: 'text' }) url!: string;
  @Column({ type: 'varchar', length: 16 }) status!: TicketStatus;
  /** The tracker's own name of the state. */
  @Column({ type: 'varchar', length: 200, default: '' }) rawStatus!: string;
  @Column({ type: 'varchar', length: 16 }) origin!: TicketOrigin;
  /** `findsvc-<finding id>` or `findsvc-g-<16 hex>`: what makes creation idempotent. */
  @Column({ type: 'varchar', length: 64 }) label!: string;
  @Column({ type: 'uuid', nullable: true }) createdBy!: string | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) createdAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) statusSyncedAt!: Date | null;
  /**
   * Set when one of its findings changed state and the tracker may need to follow
   * (docs/findings-service/tickets.md, "Service to tracker"); cleared by the sync job.
   */
  @Column({ type: 'timestamptz', nullable: true }) syncRequestedAt!: Date | null;
  /** Why the last service-to-tracker transition failed for good (null once one succeeds). */
  @Column({ type: 'varchar', length: 500, nullable: true }) syncError!: string | null;
}

/** The ticket of a finding: at most one per finding, a ticket may carry many findings. */
@Entity('finding_tickets')
export class FindingTicketEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_tickets' })
  findingId!: string;

  @ManyToOne(() => FindingEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'finding_id', foreignKeyConstraintName: 'FK_finding_tickets_finding' })
  finding?: FindingEntity;

  @ManyToOne(() => TicketEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ticket_id', foreignKeyConstraintName: 'FK_finding_tickets_ticket' })
  ticket?: TicketEntity;
  @Index('IX_finding_tickets_ticket')
  @Column({ type: 'uuid' })
  ticketId!: string;

  @Column({ type: 'timestamptz', default: () => 'now()' }) linkedAt!: Date;
  @Column({ type: 'uuid', nullable: true }) linkedBy!: string | null;
}

/** A project's ticketing: its provider, what a tracker closing a task does, the webhook secret. */
@Entity('project_ticket_settings')
export class ProjectTicketSettingsEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_project_ticket_settings' })
  projectId!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'project_id',
    foreignKeyConstraintName: 'FK_project_ticket_settings_project',
  })
  project?: ProjectEntity;

  @ManyToOne(() => InstalledPluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'installed_plugin_id',
    foreignKeyConstraintName: 'FK_project_ticket_settings_installed_plugin',
  })
  installedPlugin?: InstalledPluginEntity;
  @Column({ type: 'uuid' }) installedPluginId!: string;

  @Column({ type: 'varchar', length: 200, nullable: true }) defaultTarget!: string | null;
  @Column({ type: 'varchar', length: 16, default: 'none' })
  trackerClosedAction!: TrackerClosedAction;
  @Column({ type: 'boolean', default: true }) syncStatusToTracker!: boolean;
  /** sha256 of the current webhook secret (the secret itself is never stored). */
  @Column({ type: 'bytea', nullable: true }) webhookSecretHash!: Buffer | null;
  @Column({ type: 'timestamptz', nullable: true }) webhookRotatedAt!: Date | null;
  /** sha256 of the secret before the last rotation, accepted until `previousValidUntil`. */
  @Column({ type: 'bytea', nullable: true }) previousSecretHash!: Buffer | null;
  @Column({ type: 'timestamptz', nullable: true }) previousValidUntil!: Date | null;
  @Column({ type: 'timestamptz' }) updatedAt!: Date;
}

export const BACKFILL_STATES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type BackfillState = (typeof BACKFILL_STATES)[number];

/** One backfill of a project's history (its id is the queue job's id). */
@Entity('ticket_backfills')
@Index('UQ_ticket_backfills_running', ['projectId'], { unique: true, where: `state = 'running'` })
export class TicketBackfillEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_ticket_backfills' })
  id!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_ticket_backfills_project' })
  project?: ProjectEntity;
  @Column({ type: 'uuid' }) projectId!: string;

  @Column({ type: 'varchar', length: 16 }) mode!: 'link_only' | 'create';
  @Column({ type: 'varchar', length: 16 }) state!: BackfillState;
  @Column({ type: 'integer', default: 0 }) total!: number;
  @Column({ type: 'integer', default: 0 }) done!: number;
  @Column({ type: 'integer', default: 0 }) linked!: number;
  @Column({ type: 'integer', default: 0 }) created!: number;
  @Column({ type: 'integer', default: 0 }) skipped!: number;
  @Column({ type: 'integer', default: 0 }) failed!: number;
  /** The last finding id walked (a retry resumes after it). */
  @Column({ type: 'uuid', nullable: true }) cursor!: string | null;
  @Column({ type: 'uuid', nullable: true }) startedBy!: string | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) startedAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
}
