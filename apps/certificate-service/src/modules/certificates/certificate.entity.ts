import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import type { CertificateStatus, KeyProtectionLevel } from './certificate-status';

/**
 * An issued X.509 certificate. A renewal marks the previous certificate of the same device,
 * purpose (and user) `superseded_at` without revoking it: it stays valid until it expires or
 * is revoked explicitly.
 */
@Entity('certificates')
@Index(['deviceId', 'purpose', 'status'])
@Index(['status', 'notAfter'])
@Check('CHK_certificates_status', `"status" IN ('active','revoked')`)
@Check('CHK_certificates_key_protection', `"key_protection" IN ('none','prompt','required')`)
export class CertificateEntity {
  /** Lowercase hex without leading zero octets beyond DER's sign octet. */
  @PrimaryColumn({ type: 'varchar', length: 40 })
  serial!: string;

  @Index()
  @Column({ type: 'uuid' })
  requestId!: string;

  @Column({ type: 'uuid' })
  deviceId!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: Purpose;

  /** Subject common name (device serial or user identity). */
  @Column({ type: 'varchar', length: 255 })
  subject!: string;

  @Index()
  @Column({ type: 'varchar', length: 320, nullable: true })
  userIdentity!: string | null;

  @Column({ type: 'timestamptz' })
  notBefore!: Date;

  @Column({ type: 'timestamptz' })
  notAfter!: Date;

  @Column({ type: 'bytea' })
  der!: Buffer;

  @Column({ type: 'varchar', length: 8 })
  status!: CertificateStatus;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** RFC 5280 CRLReason name. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  revocationReason!: string | null;

  /** Issuer kind that issued it (`built_in`, later `scep`, `external`). */
  @Column({ type: 'varchar', length: 32 })
  issuerKind!: string;

  @Column({ type: 'varchar', length: 16, default: 'none' })
  keyProtection!: KeyProtectionLevel;

  @Column({ type: 'timestamptz', nullable: true })
  supersededAt!: Date | null;

  /**
   * CA chain (PEM, issuing CA first) a certificate of an external issuer (EST, SCEP) came
   * with; null: the built-in CA's chain.
   */
  @Column({ type: 'text', nullable: true })
  chainPem!: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  supersededBy!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
