import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export const SSH_CERTIFICATE_STATUSES = ['active', 'revoked'] as const;
export type SshCertificateStatus = (typeof SSH_CERTIFICATE_STATUSES)[number];

/**
 * An OpenSSH user certificate signed by the SSH CA for an `ssh` request. The serial comes from
 * the sequence `ssh_certificate_serial_seq` (1, 2, 3 ...), so revoked serials pack into KRL
 * ranges and bitmaps; it is the `ssh-<serial>` of the certificate routes.
 */
@Entity('ssh_certificates')
@Index(['deviceId', 'status'])
@Index(['status', 'validBefore'])
@Check('CHK_ssh_certificates_status', `"status" IN ('active','revoked')`)
export class SshCertificateEntity {
  /** bigint: returned by pg as a string. */
  @PrimaryColumn({ type: 'bigint' })
  serial!: string;

  @Index()
  @Column({ type: 'uuid' })
  requestId!: string;

  @Column({ type: 'uuid' })
  deviceId!: string;

  /** `certsvc:<request id>:<device serial>` (see docs/certificate-service/ssh.md). */
  @Column({ type: 'varchar', length: 255 })
  keyId!: string;

  @Column({ type: 'text', array: true })
  principals!: string[];

  /** Device owner whose login names the principals are (null when issued without one). */
  @Column({ type: 'varchar', length: 320, nullable: true })
  owner!: string | null;

  /** Subject key type, e.g. `ssh-ed25519`. */
  @Column({ type: 'varchar', length: 32 })
  keyType!: string;

  /** `SHA256:<base64>` of the subject public key. */
  @Column({ type: 'varchar', length: 64 })
  publicKeyFingerprint!: string;

  @Column({ type: 'timestamptz' })
  validAfter!: Date;

  @Column({ type: 'timestamptz' })
  validBefore!: Date;

  /** The certificate blob (wire format; base64 of it is the `*-cert.pub` text). */
  @Column({ type: 'bytea' })
  certificate!: Buffer;

  @Column({ type: 'varchar', length: 8 })
  status!: SshCertificateStatus;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  revocationReason!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
