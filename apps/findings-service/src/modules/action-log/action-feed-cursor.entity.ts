import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How far one consumer of the action-log feed has read (docs/findings-service/notifications.md,
 * "The action-log feed"): every entry whose transaction id is below `boundary` has been read.
 * Rows `notifications` and `tickets` are created by the migration at the deploy's snapshot
 * horizon, so history before the deploy is never read.
 */
@Entity('action_feed_cursors')
export class ActionFeedCursorEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_action_feed_cursors',
  })
  consumer!: string;

  /** A 64-bit transaction id (xid8 as bigint): the first transaction not yet read. */
  @Column({ type: 'bigint' }) boundary!: string;
  @Column({ type: 'timestamptz', nullable: true }) updatedAt!: Date | null;
}
