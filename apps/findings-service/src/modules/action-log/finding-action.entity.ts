import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ActorType, FindingActionName } from './finding-action';

/**
 * One entry of a finding's action log: who (actor), what (action, from, to), when (at).
 * No foreign key to `findings`: the entries of a deleted finding are kept (audit, MTTR).
 */
@Entity('finding_actions')
@Index('ix_finding_actions_finding_id_id', ['findingId', 'id'])
/**
 * Partial index of the lifecycle migration (`synchronize: false`): moves to a closing state by
 * time, for mean time to remediate and SLA compliance (modules/dashboard).
 */
@Index('ix_finding_actions_closing_at', { synchronize: false })
/** Partial index of the feed (`created`, `status_changed` by transaction id; action-feed.ts). */
@Index('ix_finding_actions_feed', { synchronize: false })
export class FindingActionEntity {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_finding_actions_id',
  })
  id!: string;

  @Column({ type: 'uuid' }) findingId!: string;
  @Column({ type: 'uuid' }) projectId!: string;

  /** user | service_account | system */
  @Column({ type: 'varchar', length: 16 }) actorType!: ActorType;
  @Column({ type: 'uuid', nullable: true }) actorId!: string | null;
  @Column({ type: 'text', nullable: true }) actorLabel!: string | null;

  @Column({ type: 'varchar', length: 32 }) action!: FindingActionName;
  @Column({ type: 'jsonb', nullable: true }) fromValue!: Record<string, unknown> | null;
  @Column({ type: 'jsonb', nullable: true }) toValue!: Record<string, unknown> | null;

  @Column({ type: 'timestamptz', default: () => 'now()' }) at!: Date;

  /**
   * The 64-bit id of the writing transaction (`pg_current_xact_id()` as bigint, by the function
   * `finding_action_tx()` of the notification-core migration), filled by the default: the order
   * of the action-log feed (action-feed.ts). NULL for entries written before the column existed.
   */
  @Column({
    type: 'bigint',
    nullable: true,
    insert: false,
    update: false,
    default: () => 'finding_action_tx()',
  })
  tx!: string | null;
}
