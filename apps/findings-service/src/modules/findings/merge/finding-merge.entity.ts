import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ActorType } from '../../action-log/finding-action';

/**
 * History of manual merges (docs/findings-service/merge.md): one row per merged member. The
 * live pointer is `findings.merged_into_id`; this row keeps who merged, when, the survivor's
 * `sources` before the merge and the entries the member added to it, so that an unmerge puts
 * back exactly what was there. No foreign keys: history outlives deleted findings.
 */
@Entity('finding_merges')
export class FindingMergeEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_finding_merges_id' })
  id!: string;

  /** One merge request (several members). */
  @Column({ type: 'uuid' }) mergeId!: string;
  @Index('ix_finding_merges_survivor_id')
  @Column({ type: 'uuid' })
  survivorId!: string;
  @Index('ix_finding_merges_member_id')
  @Column({ type: 'uuid' })
  memberId!: string;
  @Column({ type: 'uuid' }) productId!: string;
  @Column({ type: 'uuid' }) projectId!: string;
  /** The survivor's stored `sources` just before this merge. */
  @Column({ type: 'jsonb' }) survivorSourcesBefore!: Record<string, unknown>;
  /** The entries this member added to the survivor's `sources` (keys `<scanner>@<member id>`). */
  @Column({ type: 'jsonb' }) memberSources!: Record<string, unknown>;
  @Column({ type: 'varchar', length: 16 }) mergedByType!: ActorType;
  @Column({ type: 'uuid', nullable: true }) mergedById!: string | null;
  @Column({ type: 'text', nullable: true }) mergedByLabel!: string | null;
  @Column({ type: 'timestamptz' }) mergedAt!: Date;
  @Column({ type: 'timestamptz', nullable: true }) unmergedAt!: Date | null;
  @Column({ type: 'uuid', nullable: true }) unmergedById!: string | null;
  @Column({ type: 'text', nullable: true }) unmergedByLabel!: string | null;
}
