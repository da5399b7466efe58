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

  /**
   * Credential-activation challenge issued with this nonce (first TPM-attested enroll):
   * SHA-256 of the sealed credential, the AK name it was sealed for and the EK certificate's
   * SHA-256. All null for a plain nonce.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  tpmCredentialHash!: string | null;

  @Column({ type: 'varchar', length: 140, nullable: true })
  tpmAkName!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  tpmEkFingerprint!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
