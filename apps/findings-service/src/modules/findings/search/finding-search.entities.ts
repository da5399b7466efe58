import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
} from 'typeorm';
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

  /**
   * The ids of the document's words (`finding_search_word`; their postings are in
   * `finding_search_posting`). NULL only on a row written before migration 1795607100000 and not
   * rewritten yet.
   */
  @Column({ type: 'int', array: true, nullable: true }) wordIds!: number[] | null;
}

/**
 * A distinct word of the documents (finding_search_words: a run of characters between ASCII
 * white space), under a trigram GIN index; unique by md5 (migration 1795607100000,
 * `synchronize: false`). Written by the search indexer and the trigger; never deleted (a word
 * no document holds any more matches no finding).
 */
@Entity('finding_search_word')
@Index('ux_finding_search_word_md5', { synchronize: false })
@Index('ix_finding_search_word_trgm', { synchronize: false })
export class FindingSearchWordEntity {
  @PrimaryGeneratedColumn({ type: 'int', primaryKeyConstraintName: 'PK_finding_search_word' })
  id!: number;

  @Column({ type: 'text' }) word!: string;
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

/**
 * A posting of the word index in list order (migration 1795608040000): the word, the finding's
 * `created_at` (the default sort key, never updated) and the finding. The primary key's B-tree
 * returns a word's findings in `(created_at, id)` order (finding-search-driver.sql.ts). Written
 * by the search indexer and the trigger with the finding's `finding_search` row; no foreign key
 * (a deleted finding's postings stay and join no finding).
 */
@Entity('finding_search_posting')
export class FindingSearchPostingEntity {
  @PrimaryColumn({ type: 'int', primaryKeyConstraintName: 'PK_finding_search_posting' })
  wordId!: number;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'PK_finding_search_posting' })
  createdAt!: Date;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_search_posting' })
  findingId!: string;
}
