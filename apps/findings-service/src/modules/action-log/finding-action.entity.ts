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
}
