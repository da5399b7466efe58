import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * Deployment-wide licence state (one row, id 1): the Ed25519 deployment instance key
 * (`deployment_instance_key`, public; the private half sealed with the CA key-encryption
 * key for the later license attestation), the high-water mark of slots in use and the
 * activated license.
 */
@Entity('license_state')
@Check('CHK_license_state_singleton', `"id" = 1`)
export class LicenseStateEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  /** Raw 32-byte Ed25519 public key, base64. */
  @Column({ type: 'varchar', length: 64 })
  instancePublicKey!: string;

  @Column({ type: 'text' })
  instanceEncryptedPrivateKey!: string;

  @Column({ type: 'integer', default: 0 })
  highWater!: number;

  /** The activated license (`license_b64` as uploaded); null in free mode. */
  @Column({ type: 'text', nullable: true })
  licenseB64!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  licenseActivatedAt!: Date | null;

  /** Set when the ledger failed its integrity check (`tamper`); cleared by `reanchor`. */
  @Column({ type: 'text', nullable: true })
  tamperReason!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  tamperAt!: Date | null;

  /** Seat enforcement step at approval: 1 count only, 2 log and highlight, 3 refuse. */
  @Column({ type: 'smallint', default: 1 })
  seatEnforcement!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
