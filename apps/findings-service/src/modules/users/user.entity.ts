import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;

  /** Always stored lower-cased. */
  @Index('uq_users_email', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 200 }) displayName!: string;

  /** scrypt encoding from @platform/auth; null for accounts that only sign in through SSO. */
  @Column({ type: 'text', nullable: true }) passwordHash!: string | null;

  @Column({ type: 'boolean', default: false }) isAdmin!: boolean;

  @Column({ type: 'boolean', default: true }) isActive!: boolean;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
