import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from '../../users/user.entity';

/**
 * One comment of a finding's discussion thread (docs/findings-service/findings-api.md#comments).
 * No foreign key to `findings` (as the action log and the enrichment tags): the findings module
 * deletes a finding's comments with the finding (one finding, or a product's findings). The
 * author is set null when the user is deleted; `author_label` keeps the e-mail of the time.
 */
@Entity('finding_comments')
@Index('ix_finding_comments_finding_id_created_at', ['findingId', 'createdAt', 'id'])
export class FindingCommentEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_finding_comments_id' })
  id!: string;

  @Column({ type: 'uuid' }) findingId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'FK_finding_comments_author_id' })
  author?: UserEntity | null;

  @Index('ix_finding_comments_author_id')
  @Column({ type: 'uuid', nullable: true })
  authorId!: string | null;

  @Column({ type: 'text' }) authorLabel!: string;

  @Column({ type: 'text' }) body!: string;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true }) editedAt!: Date | null;
}
