import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { ProjectEntity } from '../projects/project.entity';

/**
 * A key scanners sign their callbacks with (docs/findings-service/auto-closure.md#callbacks):
 * a public id sent in `X-Scanner-Key-Id` and an HMAC secret, sealed at rest and shown once.
 * A rotation gives the old key an `expires_at` (the window in which both are valid); a retired
 * key is refused at once.
 */
@Entity('scanner_callback_keys')
export class ScannerCallbackKeyEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_scanner_callback_keys' })
  id!: string;

  /** `sck_` + 16 hex characters. */
  @Index('uq_scanner_callback_keys_key_id', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  keyId!: string;

  @Column({ type: 'varchar', length: 200 }) name!: string;
  /** The project whose findings the key may report on; null: any project. */
  @Column({ type: 'uuid', nullable: true }) projectId!: string | null;

  @ManyToOne(() => ProjectEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_scanner_callback_keys_project' })
  project?: ProjectEntity;
  @Column({ type: 'text' }) secretSealed!: string;
  @Column({ type: 'uuid', nullable: true }) createdById!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
  /** End of the rotation window (null: no end). */
  @Column({ type: 'timestamptz', nullable: true }) expiresAt!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) retiredAt!: Date | null;
  /** The key that replaced this one in a rotation. */
  @Column({ type: 'uuid', nullable: true }) replacedBy!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) lastUsedAt!: Date | null;
}
