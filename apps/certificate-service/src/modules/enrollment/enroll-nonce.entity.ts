import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** `enroll`: one-time nonce of `POST /enroll`; `source`: nonce signed for source-auth. */
export type EnrollNonceKind = 'enroll' | 'source';

/** A one-time, short-lived nonce; only its SHA-256 is stored. */
@Entity('enroll_nonces')
export class EnrollNonceEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  nonceHash!: string;

  @Column({ type: 'varchar', length: 8 })
  kind!: EnrollNonceKind;

  @Index()
  @Column({ type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
