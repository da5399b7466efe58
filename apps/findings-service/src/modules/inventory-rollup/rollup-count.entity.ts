import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A counter and its value: the columns both tables share (each keeps its own key). */
abstract class RollupCounterColumns {
  /** package | host | cve */
  @Column({ type: 'varchar', length: 8 }) axis!: string;
  @Column({ type: 'text' }) key!: string;
  @Column({ type: 'uuid' }) projectId!: string;
  @Column({ type: 'varchar', length: 8 }) severity!: string;
  @Column({ type: 'varchar', length: 16 }) status!: string;
  @Column({ type: 'int' }) n!: number;
}

/**
 * Folded counts of the inventory roll-ups (migration 1795607500000,
 * docs/findings-service/groups-and-rollups.md "Precomputed counts"): how many findings the
 * lists show by default carry `key` on `axis`, per project, severity and state, as of the last
 * fold; a counter's value is this row plus its rows in `finding_rollup_deltas`. Written only by
 * `findings_rollup_fold()` (no application code writes it); read by the roll-up
 * (rollup-counts.sql.ts).
 */
@Entity('finding_rollup_counts')
@Index('ix_finding_rollup_counts_counter', ['axis', 'key', 'projectId', 'severity', 'status'], {
  unique: true,
})
export class RollupCountEntity extends RollupCounterColumns {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_finding_rollup_counts_id',
  })
  id!: string;
}

/**
 * Signed count changes not yet folded into `finding_rollup_counts`: appended by the triggers
 * `tr_findings_rollup_*` on findings (one row per counter a statement changed), moved into the
 * counts by `findings_rollup_fold()`. Deliberately without a counter index (appending is the
 * writers' whole cost).
 */
@Entity('finding_rollup_deltas')
export class RollupDeltaEntity extends RollupCounterColumns {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_finding_rollup_deltas_id',
  })
  id!: string;
}
