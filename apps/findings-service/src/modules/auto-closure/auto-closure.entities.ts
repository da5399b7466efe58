import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { FindingEntity } from '../findings/finding.entity';
import { ProjectEntity } from '../projects/project.entity';
import { ReportEntity } from '../reports/report.entity';

/**
 * Tables of the automatic closure (docs/findings-service/auto-closure.md). Only this module's
 * repositories write them; a finding's status changes through the findings module's
 * status-change SQL builder inside this module's transaction.
 */

export const ABSENCE_RESULTS = ['absent', 'present', 'undetermined'] as const;
export type AbsenceResult = (typeof ABSENCE_RESULTS)[number];
export type CandidateResult = AbsenceResult | 'gone';

export const CHECK_STATES = ['running', 'completed', 'skipped'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** One closure check: the evaluation of one completed report that asked for it. */
@Entity('auto_closure_checks')
export class AutoClosureCheckEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_auto_closure_checks' })
  reportId!: string;

  /** Report cleanup takes its check with it. */
  @ManyToOne(() => ReportEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'report_id', foreignKeyConstraintName: 'FK_auto_closure_checks_report' })
  report?: ReportEntity;

  @Column({ type: 'uuid' }) projectId!: string;
  @Index('ix_auto_closure_checks_product_id')
  @Column({ type: 'uuid' })
  productId!: string;

  @Column({ type: 'varchar', length: 16 }) state!: CheckState;
  /** Why a check was skipped, or why its candidates were all `undetermined`. */
  @Column({ type: 'varchar', length: 32, nullable: true }) reason!: string | null;
  @Column({ type: 'integer', default: 0 }) attemptsDone!: number;
  @Column({ type: 'integer', default: 0 }) candidates!: number;
  @Column({ type: 'integer', default: 0 }) absent!: number;
  @Column({ type: 'integer', default: 0 }) present!: number;
  @Column({ type: 'integer', default: 0 }) undetermined!: number;
  @Column({ type: 'integer', default: 0 }) closed!: number;
  @Column({ type: 'timestamptz' }) startedAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) finishedAt!: Date | null;
}

/**
 * A finding under evaluation by a running check (deleted when the check completes). No foreign
 * key: rows live for seconds, are always read joined with their finding, and a check can
 * select hundreds of thousands of them (a per-row key check would cost more than the rest).
 */
@Entity('auto_closure_candidates')
export class AutoClosureCandidateEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_auto_closure_candidates' })
  reportId!: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_auto_closure_candidates' })
  findingId!: string;

  /**
   * What the attempts so far say: `absent`, `present` (seen again meanwhile), `undetermined`
   * (an attempt could not decide: another report of the product still running, a result the
   * report could not read) or `gone` (left the attention states meanwhile: not counted).
   */
  @Column({ type: 'varchar', length: 16, default: 'absent' }) result!: CandidateResult;
  /** What the counters need, copied at selection (the last step reads no finding). */
  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'uuid' }) productId!: string;
  @Column({ type: 'varchar', length: 200 }) scanner!: string;
  /** The finding's last sighting when it was selected: any change is a detection (`present`). */
  @Column({ type: 'timestamptz' }) seenAt!: Date;
  @Column({ type: 'uuid', nullable: true }) seenReportId!: string | null;
}

/** The consecutive-absence counter of one finding, and the confirmation of the second mechanism. */
@Entity('finding_absences')
@Index('ix_finding_absences_project_id_streak', ['projectId', 'streak'])
export class FindingAbsenceEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_absences' })
  findingId!: string;

  @ManyToOne(() => FindingEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'finding_id', foreignKeyConstraintName: 'FK_finding_absences_finding' })
  finding?: FindingEntity;

  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'uuid' }) productId!: string;
  /** The scanner whose reports the counter counts. */
  @Column({ type: 'varchar', length: 200 }) scanner!: string;
  /** Consecutive checks that found the finding absent (0 after a detection or an undecided check). */
  @Column({ type: 'integer', default: 0 }) streak!: number;
  @Column({ type: 'timestamptz', nullable: true }) streakStartedAt!: Date | null;
  /** The finding's `last_seen_at` when the streak was counted: any later sighting resets it. */
  @Column({ type: 'timestamptz' }) basisSeenAt!: Date;
  /** The reports of the current streak, oldest first (evidence). */
  @Column({ type: 'uuid', array: true, default: () => "'{}'" }) checkReports!: string[];
  @Column({ type: 'varchar', length: 16 }) lastResult!: AbsenceResult;
  @Column({ type: 'uuid' }) lastReportId!: string;
  @Column({ type: 'timestamptz' }) lastCheckAt!: Date;
  /** The latest answer of the second mechanism (scanner re-verification) and when it came. */
  @Column({ type: 'varchar', length: 16, nullable: true }) confirmation!: AbsenceResult | null;
  @Column({ type: 'timestamptz', nullable: true }) confirmationAt!: Date | null;
  @Column({ type: 'uuid', nullable: true }) confirmationId!: string | null;
  /** When the automatic path last asked the scanner to re-verify (once per streak). */
  @Column({ type: 'timestamptz', nullable: true }) requestedAt!: Date | null;
  @Column({ type: 'timestamptz' }) updatedAt!: Date;
}

/** An automatic closure and its evidence (the hourly cap counts these). */
@Entity('auto_closures')
@Index('ix_auto_closures_project_id_closed_at', ['projectId', 'closedAt'])
@Index('ix_auto_closures_finding_id', ['findingId'])
export class AutoClosureEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_auto_closures' }) id!: string;
  @Column({ type: 'uuid' }) findingId!: string;
  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'timestamptz' }) closedAt!: Date;
  /** `{ reports: [...], checks: n, confirmation: {...} }` */
  @Column({ type: 'jsonb' }) evidence!: Record<string, unknown>;
}

export const VERIFICATION_ORIGINS = ['manual', 'automatic', 'scanner'] as const;
export type VerificationOrigin = (typeof VERIFICATION_ORIGINS)[number];
export const VERIFICATION_STATES = ['pending', 'answered', 'failed'] as const;
export type VerificationState = (typeof VERIFICATION_STATES)[number];

/** A re-verification of a finding by its scanner: asked by us (pending → answered) or reported by it. */
@Entity('finding_verifications')
@Index('ix_finding_verifications_finding_id_requested_at', ['findingId', 'requestedAt'])
export class FindingVerificationEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_verifications' })
  id!: string;

  @Column({ type: 'uuid' }) findingId!: string;

  @ManyToOne(() => FindingEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'finding_id', foreignKeyConstraintName: 'FK_finding_verifications_finding' })
  finding?: FindingEntity;

  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'varchar', length: 16 }) origin!: VerificationOrigin;
  @Column({ type: 'varchar', length: 16 }) state!: VerificationState;
  @Column({ type: 'varchar', length: 16, nullable: true }) requestedByType!: string | null;
  @Column({ type: 'uuid', nullable: true }) requestedById!: string | null;
  @Column({ type: 'text', nullable: true }) requestedByLabel!: string | null;
  @Column({ type: 'timestamptz' }) requestedAt!: Date;
  /** Why the outgoing request failed (a refusal code of the egress guard, `http_<status>`, ...). */
  @Column({ type: 'varchar', length: 64, nullable: true }) deliveryError!: string | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) result!: AbsenceResult | null;
  @Column({ type: 'timestamptz', nullable: true }) answeredAt!: Date | null;
  /** The callback key that signed the answer (its public id). */
  @Column({ type: 'varchar', length: 32, nullable: true }) answeredKeyId!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) scanner!: string | null;
  @Column({ type: 'text', nullable: true }) details!: string | null;
}

/** Where a project's scanner takes re-verification requests (secret sealed, never returned). */
@Entity('verification_endpoints')
export class VerificationEndpointEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_verification_endpoints' })
  projectId!: string;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_verification_endpoints_project' })
  project?: ProjectEntity;

  @Column({ type: 'text' }) url!: string;
  /** HMAC key of our outgoing requests, sealed (PluginSecretBox's key, purpose of its own). */
  @Column({ type: 'text' }) secretSealed!: string;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
  @Column({ type: 'timestamptz' }) updatedAt!: Date;
}
