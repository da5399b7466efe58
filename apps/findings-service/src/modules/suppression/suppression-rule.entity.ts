import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { ProjectEntity } from '../projects/project.entity';

export const RULE_RUN_STATES = ['running', 'completed', 'stopped', 'failed'] as const;
export type RuleRunState = (typeof RULE_RUN_STATES)[number];

/**
 * A project's suppression rule (docs/findings-service/suppression.md): a query-language text
 * over the rule fields, and the state of its last run over the accumulated findings (`run_*`,
 * NULL before the first run). Deleting the project deletes its rules.
 */
@Entity('suppression_rules')
@Index('ix_suppression_rules_project_id', ['projectId', 'createdAt'])
export class SuppressionRuleEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_suppression_rules' }) id!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_suppression_rules_project' })
  project?: ProjectEntity;
  @Column({ type: 'uuid' }) projectId!: string;

  @Column({ type: 'varchar', length: 200 }) name!: string;
  @Column({ type: 'varchar', length: 1000 }) query!: string;
  @Column({ type: 'varchar', length: 2000, nullable: true }) reason!: string | null;
  @Column({ type: 'boolean', default: true }) enabled!: boolean;
  @Column({ type: 'uuid', nullable: true }) createdBy!: string | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) createdAt!: Date;
  @Column({ type: 'timestamptz', default: () => 'now()' }) updatedAt!: Date;

  /** The last run: its queue job, state, findings walked of `run_total`, findings it suppressed. */
  @Column({ type: 'varchar', length: 64, nullable: true }) runJobId!: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) runState!: RuleRunState | null;
  @Column({ type: 'integer', default: 0 }) runTotal!: number;
  @Column({ type: 'integer', default: 0 }) runDone!: number;
  @Column({ type: 'integer', default: 0 }) runMatched!: number;
  @Column({ type: 'timestamptz', nullable: true }) runStartedAt!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) runFinishedAt!: Date | null;
  /** The run's last sign of life (start, each chunk): a stale one is replaced by the next run. */
  @Column({ type: 'timestamptz', nullable: true }) runHeartbeatAt!: Date | null;
  /** The last finding id the run committed: a retried job resumes after it. */
  @Column({ type: 'uuid', nullable: true }) runAfterId!: string | null;
}

/**
 * The rules' own action log: one entry per change of a rule (created, updated, enabled,
 * disabled, deleted, run_started, run_completed, run_failed), kept after the rule is deleted.
 * What a change did to findings is in each finding's action log (`suppressed`, `unsuppressed`).
 */
@Entity('suppression_rule_actions')
@Index('ix_suppression_rule_actions_rule_id_id', ['ruleId', 'id'])
export class SuppressionRuleActionEntity {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_suppression_rule_actions_id',
  })
  id!: string;

  @Column({ type: 'uuid' }) ruleId!: string;
  @Column({ type: 'uuid' }) projectId!: string;
  /** user | system */
  @Column({ type: 'varchar', length: 16 }) actorType!: string;
  @Column({ type: 'uuid', nullable: true }) actorId!: string | null;
  @Column({ type: 'text', nullable: true }) actorLabel!: string | null;
  @Column({ type: 'varchar', length: 32 }) action!: string;
  @Column({ type: 'jsonb', nullable: true }) fromValue!: Record<string, unknown> | null;
  @Column({ type: 'jsonb', nullable: true }) toValue!: Record<string, unknown> | null;
  @Column({ type: 'timestamptz', default: () => 'now()' }) at!: Date;
}
