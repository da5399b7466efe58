import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A person: local (password hash) or from the identity provider (no password hash). */
@Entity('users')
export class UserEntity {
  /** Lower-cased email address. */
  @PrimaryColumn({ type: 'varchar', length: 320 })
  email!: string;

  /** scrypt hash (`scrypt$N$r$p$salt$hash`); null for single sign-on users. */
  @Column({ type: 'text', nullable: true })
  passwordHash!: string | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastLoginAt!: Date | null;
}
