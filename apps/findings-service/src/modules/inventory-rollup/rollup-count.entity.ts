import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Signed counts of the inventory roll-ups (migration 1795606900000,
 * docs/findings-service/groups-and-rollups.md "Precomputed counts"): how many findings the
 * lists show by default carry `key` on `axis`, per project, severity and state; a counter is
 * the sum of its rows (usually one). Written only by the triggers `tr_findings_rollup_*` on
 * findings (no application code writes it); read by the roll-up (inventory-rollup.sql.ts).
 */
@Entity('finding_rollup_counts')
@Index('ix_finding_rollup_counts_counter', ['axis', 'key', 'projectId', 'severity', 'status'])
export class RollupCountEntity {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_finding_rollup_counts_id',
  })
  id!: string;

  /** package | host | cve */
  @Column({ type: 'varchar', length: 8 }) axis!: string;
  @Column({ type: 'text' }) key!: string;
  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'varchar', length: 8 }) severity!: string;
  @Column({ type: 'varchar', length: 16 }) status!: string;
  @Column({ type: 'int' }) n!: number;
}
