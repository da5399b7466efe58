import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ActorType } from '../action-log/finding-action';

/** Kinds of deadline violations the hourly check records. */
export const SLA_VIOLATION_KINDS = ['approaching', 'breached'] as const;
export type SlaViolationKind = (typeof SLA_VIOLATION_KINDS)[number];

/** Why a violation was resolved (docs/findings-service/lifecycle.md#violations). */
export const SLA_RESOLUTIONS = [
  'finding_closed',
  'manual',
  'breached',
  'deadline_moved',
  'finding_deleted',
] as const;
export type SlaResolution = (typeof SLA_RESOLUTIONS)[number];

/**
 * A deadline violation: the hourly check saw the finding's running clock approach
 * (`approaching`) or pass (`breached`) its deadline. At most one open violation per finding
 * and kind (partial unique index). Project, product and severity are copied so the record and
 * the compliance figures survive the finding's deletion; no foreign key, like the action log.
 */
@Entity('sla_violations')
@Index('uq_sla_violations_open_finding_kind', ['findingId', 'kind'], {
  unique: true,
  where: '"resolved_at" IS NULL',
})
@Index('ix_sla_violations_finding_id_due_at', ['findingId', 'dueAt'])
@Index('ix_sla_violations_opened_at_id', ['openedAt', 'id'])
/** Violations not yet handed to the notification queue (outbox of the hourly check). */
@Index('ix_sla_violations_unnotified', ['id'], {
  where: '"notified_at" IS NULL AND "resolved_at" IS NULL',
})
export class SlaViolationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_sla_violations_id' })
  id!: string;

  @Column({ type: 'uuid' }) findingId!: string;
  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'uuid' }) productId!: string;
  @Column({ type: 'varchar', length: 8 }) severity!: string;
  @Column({ type: 'varchar', length: 16 }) kind!: SlaViolationKind;
  /** The finding's deadline when the violation was opened. */
  @Column({ type: 'timestamptz' }) dueAt!: Date;
  @Column({ type: 'timestamptz' }) openedAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) notifiedAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true }) resolvedAt!: Date | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) resolution!: SlaResolution | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) resolvedByType!: ActorType | null;
  @Column({ type: 'uuid', nullable: true }) resolvedById!: string | null;
  @Column({ type: 'text', nullable: true }) resolvedByLabel!: string | null;
  @Column({ type: 'text', nullable: true }) resolutionComment!: string | null;
}
