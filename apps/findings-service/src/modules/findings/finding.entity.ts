import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { FindingStatus } from './finding-status';
import type { CodeFlow, RelatedLocation } from '@platform/report-parsing';
import { ProductEntity } from '../products/product.entity';

/**
 * A normalized finding, unique per (product, identity hash). Ingestion writes it set-based
 * (findings-bulk-write.repository.ts); every searchable field has its own column. `sources`
 * holds the entries per contributing scanner, keyed by scanner name, that the row's own
 * columns do not imply (read it through `findingSources`, see finding-sources.ts). The table has fillfactor 50
 * (migration 1764300000000) so that re-ingestion updates are HOT: index only columns that
 * ingestion does not update on a re-sighting (see docs/findings-service/ingestion.md).
 */
@Entity('findings')
@Index('uq_findings_product_id_identity_hash', ['productId', 'identityHash'], { unique: true })
@Index('ix_findings_product_id_id', ['productId', 'id'])
@Index('ix_findings_project_id_id', ['projectId', 'id'])
/** GET /projects' counts per status and severity: an index-only scan (migration 1795605700000). */
@Index('ix_findings_project_id_status_severity', ['projectId', 'status', 'severity'])
@Index('ix_findings_severity_status_id', ['severity', 'status', 'id'])
@Index('ix_findings_created_at_id', ['createdAt', 'id'])
/** Expression index `((CASE severity ... END), id)` from the findings-API migration. */
@Index('ix_findings_severity_rank_id', { synchronize: false })
/**
 * Partial indexes of the lifecycle migration (declared there, `synchronize: false`): started
 * clocks by deadline (hourly SLA check, dashboards), and the dates of the expiry tasks.
 * Ingestion updates none of their columns, so its re-sighting updates stay HOT.
 */
@Index('ix_findings_sla_due_at', { synchronize: false })
@Index('ix_findings_risk_accepted_until', { synchronize: false })
@Index('ix_findings_waiting_until', { synchronize: false })
/** Partial indexes of the roll-up axes (migration 1795606500000, groups-and-rollups.md). */
@Index('ix_findings_component_rollup', { synchronize: false })
@Index('ix_findings_host_rollup', { synchronize: false })
@Index('ix_findings_cve_rollup', { synchronize: false })
@Index('ix_findings_rule_group', { synchronize: false })
@Index('ix_findings_component_long', { synchronize: false })
@Index('ix_findings_host_long', { synchronize: false })
@Index('ix_findings_rule_id_long', { synchronize: false })
/** Partial indexes of the merge migration (1795606300000): a survivor's members, merged rows per product. */
@Index('ix_findings_merged_into_id', { synchronize: false })
@Index('ix_findings_merged_product_id', { synchronize: false })
/** Partial index of the suppression migration (1795606400000): the findings a rule suppressed. */
@Index('ix_findings_suppression_rule_id', { synchronize: false })
export class FindingEntity {
  /** Ingestion supplies time-ordered UUIDv7 ids; other writers get the random default. */
  @PrimaryGeneratedColumn('uuid') id!: string;

  /**
   * No foreign key: its per-row check (a row lock on the product for every inserted finding)
   * was ~10 % of PostgreSQL's time on a first ingest. Writers hold the product row FOR KEY
   * SHARE instead, once per transaction (`lockProductForWrite`), and deleting a product locks
   * it FOR UPDATE and deletes its findings first (ProductsRepository.delete), so no finding
   * is ever left without its product.
   */
  @ManyToOne(() => ProductEntity, { createForeignKeyConstraints: false })
  @JoinColumn({ name: 'product_id' })
  product?: ProductEntity;

  @Column({ type: 'uuid' }) productId!: string;

  /** Denormalized from the product for visibility filtering. */
  @Column({ type: 'uuid' }) projectId!: string;

  @Column({ type: 'char', length: 64 }) identityHash!: string;

  /** code | web | network_cve | network */
  @Column({ type: 'varchar', length: 16 }) identityKind!: string;

  @Column({ type: 'text' }) ruleId!: string;
  @Column({ type: 'text', nullable: true }) ruleName!: string | null;
  /**
   * Short title of the rule for lists (the rule's short description, else its name; never the
   * message): NormalizedFinding.rule_title. Null for findings stored before it and manual ones.
   */
  @Column({ type: 'text', nullable: true }) ruleTitle?: string | null;
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text' }) description!: string;

  @Column({ type: 'varchar', length: 8 }) severity!: string;
  @Column({ type: 'varchar', length: 16, default: 'new' }) status!: FindingStatus;
  @Column({ type: 'timestamptz', nullable: true }) statusChangedAt!: Date | null;

  @Column({ type: 'varchar', length: 16, nullable: true }) baselineState!: string | null;
  @Column({ type: 'varchar', length: 16, default: 'fail' }) kind!: string;
  @Column({ type: 'boolean', default: false }) suppressed!: boolean;

  @Column({ type: 'text', nullable: true }) host!: string | null;
  @Column({ type: 'text', nullable: true }) ip!: string | null;
  @Column({ type: 'integer', nullable: true }) port!: number | null;
  @Column({ type: 'varchar', length: 16, nullable: true }) protocol!: string | null;
  @Column({ type: 'text', nullable: true }) service!: string | null;
  @Column({ type: 'text', nullable: true }) url!: string | null;
  @Column({ type: 'text', nullable: true }) filePath!: string | null;
  @Column({ type: 'integer', nullable: true }) startLine!: number | null;
  @Column({ type: 'integer', nullable: true }) endLine!: number | null;
  @Column({ type: 'text', nullable: true }) snippet!: string | null;
  @Column({ type: 'text', nullable: true }) logicalLocation!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true }) cve!: string | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) cwe!: string[];
  @Column({ type: 'text', nullable: true }) component!: string | null;
  @Column({ type: 'text', nullable: true }) componentVersion!: string | null;
  @Column({ type: 'real', nullable: true }) score!: number | null;

  /** Latest scanner that reported the finding (every scanner is in `sources`). */
  @Column({ type: 'varchar', length: 200 }) scanner!: string;
  @Column({ type: 'text', nullable: true }) scannerVersion!: string | null;
  @Column({ type: 'text', nullable: true }) revision!: string | null;

  /** Tags from the report (rule/result properties). */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) reportTags!: string[];
  /** Manual tags (set and removed by people through the findings API). */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) tags!: string[];
  /** Written by enrichment plugins; overwritten by the next enrichment. */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) enrichmentTags!: string[];

  /**
   * Remediation days from the project settings for the severity (null: none); follows the
   * project's settings while the finding is not closed (docs/findings-service/lifecycle.md).
   */
  @Column({ type: 'integer', nullable: true }) slaDays!: number | null;

  /**
   * Remediation clock (modules/sla-clock/sla-clock.sql.ts): started when taken into work,
   * stop moment of the current pause, idle time of earlier pauses (ms), and the deadline
   * (started + days + idle). Optional in the type: new findings start without a clock.
   */
  @Column({ type: 'timestamptz', nullable: true }) slaStartedAt?: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) slaPausedAt?: Date | null;
  @Column({ type: 'bigint', default: 0 }) slaIdleMs?: string;
  @Column({ type: 'timestamptz', nullable: true }) slaDueAt?: Date | null;

  /**
   * Triage (findings API): assigned user, comment/justification, state dates. Optional in the
   * type so that writers of new findings need not name them (they start empty).
   */
  @Column({ type: 'uuid', nullable: true }) assigneeId?: string | null;
  @Column({ type: 'text', nullable: true }) triageComment?: string | null;
  @Column({ type: 'timestamptz', nullable: true }) riskAcceptedUntil?: Date | null;
  @Column({ type: 'text', nullable: true }) waitingReason?: string | null;
  @Column({ type: 'timestamptz', nullable: true }) waitingUntil?: Date | null;

  @Column({ type: 'jsonb', default: () => "'{}'" }) fingerprints!: Record<string, unknown>;
  @Column({ type: 'jsonb', default: () => "'{}'" }) properties!: Record<string, unknown>;
  /** SARIF `relatedLocations` of the latest sighting that had some (capped, sarif-flows.ts). */
  @Column({ type: 'jsonb', nullable: true }) relatedLocations?: RelatedLocation[] | null;
  /** SARIF `codeFlows` of the latest sighting that had some (capped, sarif-flows.ts). */
  @Column({ type: 'jsonb', nullable: true }) codeFlows?: CodeFlow[] | null;
  /**
   * `{ "<scanner>": { scanner, scanner_version, scanned_at, cve, score, description, rule_id } }`
   * without the latest scanner's entry when the columns imply it: read with `findingSources`.
   */
  @Column({ type: 'jsonb', default: () => "'{}'" }) sources!: Record<string, unknown>;
  /**
   * Digest of the last sighting's raw result and run context (ingestion only: a re-sighting
   * with the same digest is marked seen without being normalized again, see result-digest.ts).
   */
  @Column({ type: 'uuid', nullable: true, select: false }) contentDigest?: string | null;

  /**
   * Manual merge (docs/findings-service/merge.md): the survivor this finding was merged into and
   * when; null for a finding that is not merged. A merged finding leaves lists, counts, deadlines,
   * notifications and auto-closure; ingestion never writes these columns.
   */
  @Column({ type: 'uuid', nullable: true }) mergedIntoId?: string | null;
  @Column({ type: 'timestamptz', nullable: true }) mergedAt?: Date | null;

  /**
   * Suppression (docs/findings-service/suppression.md): the project's rule that suppressed the
   * finding and when; null when not suppressed. Written only through finding-suppression.sql.ts
   * (ingestion sets them on insert only; a re-sighting never changes them). Not the scanner's
   * in-source `suppressed` flag above.
   */
  @Column({ type: 'uuid', nullable: true }) suppressionRuleId?: string | null;
  @Column({ type: 'timestamptz', nullable: true }) suppressedAt?: Date | null;

  @Column({ type: 'timestamptz' }) firstSeenAt!: Date;
  @Column({ type: 'timestamptz' }) lastSeenAt!: Date;
  @Column({ type: 'uuid', nullable: true }) firstReportId!: string | null;
  @Column({ type: 'uuid', nullable: true }) lastReportId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
