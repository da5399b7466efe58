import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * An opaque refresh token, stored as its SHA-256 only; rotations share one family. A rotation
 * marks it used, an ended session revoked (docs/auth-tokens.md).
 */
@Entity('refresh_tokens')
export class RefreshTokenEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Index('ix_refresh_tokens_user_id')
  @Column({ type: 'uuid' })
  userId!: string;

  @Index('ix_refresh_tokens_family_id')
  @Column({ type: 'uuid' })
  familyId!: string;

  @Index('uq_refresh_tokens_token_hash', { unique: true })
  @Column({ type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ type: 'timestamptz' }) expiresAt!: Date;

  @Column({ type: 'timestamptz', nullable: true }) usedAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true }) revokedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
}
