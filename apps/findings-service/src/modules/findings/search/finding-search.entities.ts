import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { FindingEntity } from '../finding.entity';

/**
 * A finding's searchable text (title, description and rule id, one line each), under a trigram
 * GIN index (migration 1795606750000, `synchronize: false`: TypeORM cannot declare an operator
 * class). Written only by the search indexer (finding-search.repository.ts) and the trigger
 * `tr_findings_search_refresh`; read by the list's search condition (finding-search.sql.ts).
 */
@Entity('finding_search')
@Index('ix_finding_search_document_trgm', { synchronize: false })
export class FindingSearchEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_search' })
  findingId!: string;

  /** A deleted finding takes its row with it. */
  @ManyToOne(() => FindingEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'finding_id', foreignKeyConstraintName: 'FK_finding_search_finding' })
  finding?: FindingEntity;

  @Column({ type: 'text' }) document!: string;
}

/**
 * One row (id 1): every finding created before `frontier` has its `finding_search` row; the
 * younger ones are searched without the index (docs/findings-service/findings-api.md).
 */
@Entity('finding_search_state')
export class FindingSearchStateEntity {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'PK_finding_search_state' })
  id!: number;

  @Column({ type: 'timestamptz' }) frontier!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' }) updatedAt!: Date;
}
