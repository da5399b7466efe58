import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** A machine caller. Only the key's public prefix and the SHA-256 of the full key are kept. */
@Entity('service_accounts')
export class ServiceAccountEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;

  @Column({ type: 'varchar', length: 200 }) name!: string;

  @Column({ type: 'text', nullable: true }) description!: string | null;

  /** The 8 hex characters after `sa_`. */
  @Index('uq_service_accounts_key_prefix', { unique: true })
  @Column({ type: 'char', length: 8 })
  keyPrefix!: string;

  @Column({ type: 'char', length: 64 }) keyHash!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'created_by_user_id' })
  createdBy?: UserEntity | null;

  @Column({ type: 'uuid', nullable: true }) createdByUserId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true }) revokedAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true }) lastUsedAt!: Date | null;
}
