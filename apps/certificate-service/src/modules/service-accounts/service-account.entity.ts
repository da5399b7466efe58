import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';

/** An API caller with a `wca_*` token (only its SHA-256 is stored) and role cert-auto-approver. */
@Entity('service_accounts')
export class ServiceAccountEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  tokenHash!: string;

  /** First characters of the token, to recognise it in lists. */
  @Column({ type: 'varchar', length: 16 })
  tokenPrefix!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** 0 means the token never expires. */
  @Column({ type: 'integer', default: 0 })
  expiresInDays!: number;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ type: 'text', array: true })
  allowedPurposes!: Purpose[];

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
