import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InstalledPluginEntity } from '../plugins/installed-plugins/installed-plugin.entity';
import { ProjectEntity } from '../projects/project.entity';
import type { DeliveryState, NotificationKind, NotificationState } from './notification-kinds';

/**
 * One notification: a project × kind × coalescing window (docs/findings-service/notifications.md).
 * `collecting` drafts take findings from the action-log feed until sealed; deadline-check jobs
 * make sealed ones at once (`source_key` = `sla:<job id>`, so a redelivered job adds nothing).
 */
@Entity('notifications')
@Index('uq_notifications_source_key', ['sourceKey'], { unique: true })
@Index('uq_notifications_collecting', ['projectId', 'kind'], {
  unique: true,
  where: `"state" = 'collecting'`,
})
export class NotificationEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_notifications' }) id!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_notifications_project_id' })
  project?: ProjectEntity;

  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'varchar', length: 24 }) kind!: NotificationKind;
  @Column({ type: 'varchar', length: 12 }) state!: NotificationState;
  @Column({ type: 'text', nullable: true }) sourceKey!: string | null;
  /** Findings per severity, all of the notification's findings. */
  @Column({ type: 'jsonb', default: () => "'{}'" }) counts!: Record<string, number>;
  /** The most severe findings (severity desc, then id), at most NOTIFICATION_ITEMS_KEPT. */
  @Column({ type: 'jsonb', default: () => "'[]'" }) items!: unknown[];
  @Column({ type: 'int', default: 0 }) findingCount!: number;
  @Column({ type: 'timestamptz' }) openedAt!: Date;
  @Column({ type: 'timestamptz' }) lastAddedAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) sealedAt!: Date | null;
}

/**
 * The outbox: one delivery of a sealed notification to one channel installation. Claimed by one
 * worker at a time (`lease_owner`/`lease_until`); uninstalling the channel removes its rows.
 */
@Entity('notification_deliveries')
@Index('uq_notification_deliveries_idempotency_key', ['idempotencyKey'], { unique: true })
@Index('ix_notification_deliveries_due', ['state', 'nextAttemptAt'], {
  where: `"state" IN ('pending', 'delivering')`,
})
@Index('ix_notification_deliveries_channel', ['projectId', 'installedPluginId', 'createdAt'])
@Index('ix_notification_deliveries_notification_id', ['notificationId'])
export class NotificationDeliveryEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_notification_deliveries' })
  id!: string;

  @ManyToOne(() => NotificationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'notification_id',
    foreignKeyConstraintName: 'FK_notification_deliveries_notification_id',
  })
  notification?: NotificationEntity;

  @Column({ type: 'uuid' }) notificationId!: string;
  @Column({ type: 'uuid' }) projectId!: string;

  @ManyToOne(() => InstalledPluginEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'installed_plugin_id',
    foreignKeyConstraintName: 'FK_notification_deliveries_installed_plugin_id',
  })
  installedPlugin?: InstalledPluginEntity;

  @Column({ type: 'uuid' }) installedPluginId!: string;
  /** `ntf:<notification id>:<installed plugin id>`. */
  @Column({ type: 'varchar', length: 200 }) idempotencyKey!: string;
  /** The channel's filter frozen at fan-out. */
  @Column({ type: 'jsonb' }) threshold!: Record<string, unknown>;
  @Column({ type: 'varchar', length: 12 }) state!: DeliveryState;
  @Column({ type: 'int', default: 0 }) attempts!: number;
  @Column({ type: 'timestamptz' }) nextAttemptAt!: Date;
  @Column({ type: 'text', nullable: true }) leaseOwner!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) leaseUntil!: Date | null;
  @Column({ type: 'varchar', length: 48, nullable: true }) lastErrorCode!: string | null;
  @Column({ type: 'text', nullable: true }) lastErrorMessage!: string | null;
  @Column({ type: 'jsonb', nullable: true }) result!: Record<string, unknown> | null;
  @Column({ type: 'timestamptz' }) createdAt!: Date;
  @Column({ type: 'timestamptz' }) updatedAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) deliveredAt!: Date | null;
}
