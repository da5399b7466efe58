import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type AppAttestationVerdict = 'verified';

/**
 * A verified App Attest receipt, waiting to be used by one `POST /enroll` of the same serial
 * before `expiresAt` (then `usedAt` is set). Only verified receipts are stored.
 */
@Entity('app_attestations')
@Index(['serial', 'verifiedAt'])
export class AppAttestationEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'varchar', length: 128 })
  serial!: string;

  /** Hex SHA-256 of the attested key's uncompressed point (App Attest key identifier). */
  @Column({ type: 'varchar', length: 64 })
  keyId!: string;

  @Column({ type: 'varchar', length: 255 })
  appId!: string;

  /** `production` or `development` (aaguid). */
  @Column({ type: 'varchar', length: 16 })
  environment!: string;

  @Column({ type: 'varchar', length: 16 })
  verdict!: AppAttestationVerdict;

  /** As reported by the app (e.g. `27.0.1`); not attested. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  osVersion!: string | null;

  @Column({ type: 'timestamptz' })
  verifiedAt!: Date;

  @Index()
  @Column({ type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt!: Date | null;
}
