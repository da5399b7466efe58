import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from '../devices/device.entity';
import type { RequestStatus } from './request-status';

/** How the request source was checked at enrollment (recorded even when the policy is `off`). */
export type SourceAuthResult =
  'not_checked' | 'signature_valid' | 'signature_invalid' | 'version_ok' | 'tpm_attested';

export type RequestAttestation = 'tpm' | 'none';

/** Who asked for the request: the device itself (machine purposes) or a user on it. */
export type RequesterKind = 'device' | 'user';

/**
 * A certificate request (CSR) of a device. Approval, issuance and revocation move its
 * status; see `request-status.ts` for the terminal ones.
 */
@Entity('certificate_requests')
@Index(['status', 'createdAt'])
@Index(['deviceId', 'purpose', 'status'])
@Check(
  'CHK_certificate_requests_status',
  `"status" IN ('pending','approved','ca_pending','issued','rejected','failed','superseded','cancelled')`,
)
export class CertificateRequestEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'uuid' })
  deviceId!: string;

  /** Requests keep the history of a device: a device with requests cannot be deleted. */
  @ManyToOne(() => DeviceEntity)
  @JoinColumn({ name: 'device_id' })
  device?: DeviceEntity;

  @Index()
  @Column({ type: 'varchar', length: 16 })
  purpose!: Purpose;

  @Column({ type: 'varchar', length: 16 })
  status!: RequestStatus;

  /** PKCS#10 DER; for `ssh` the OpenSSH public key blob sent to `POST /enroll/ssh`. */
  @Column({ type: 'bytea' })
  csrDer!: Buffer;

  @Column({ type: 'bytea' })
  publicKeySpkiDer!: Buffer;

  /** SHA-256 of the SPKI, lowercase hex (licence identity `pk:`, key pinning). */
  @Index()
  @Column({ type: 'varchar', length: 64 })
  publicKeyHash!: string;

  @Column({ type: 'varchar', length: 8 })
  keyAlgorithm!: 'rsa' | 'ec' | 'ed25519';

  /** Common name the CSR asked for (informational; issuance decides the subject). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  subjectCommonName!: string | null;

  @Column({ type: 'varchar', length: 8 })
  requesterKind!: RequesterKind;

  /** `device:<serial>` or the user identity that asked. */
  @Column({ type: 'varchar', length: 320 })
  requestedBy!: string;

  /** User identity for `user_mtls` and `ad_logon`. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  userIdentity!: string | null;

  /** User principal name (`ad_logon`). */
  @Column({ type: 'varchar', length: 320, nullable: true })
  upn!: string | null;

  /** Windows SID (`ad_logon`, optional). */
  @Column({ type: 'varchar', length: 184, nullable: true })
  sid!: string | null;

  /** Set when the device was blocked at creation; never cleared. */
  @Column({ type: 'boolean', default: false })
  registeredDuringBlock!: boolean;

  /** SHA-256 of the agent secret (shown once at enrollment). */
  @Column({ type: 'varchar', length: 64 })
  agentSecretHash!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  agentVersion!: string | null;

  @Column({ type: 'varchar', length: 32 })
  sourceAuth!: SourceAuthResult;

  /**
   * Hardware attestation of the request: `tpm` when its enrollment carried verified TPM
   * evidence (EK chain, AK activated or pinned), else `none`. The service-account check reads it.
   */
  @Column({ type: 'varchar', length: 16, default: 'none' })
  attestation!: RequestAttestation;

  /** App attestation verdict of `POST /enroll` (modules/app-attest gate); null: not looked at. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  appAttest?: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  /** Email of the person, `API` for a service account. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  decidedBy!: string | null;

  /** Error code of a failed issuance, or the reason of a rejection. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  statusReason!: string | null;

  /** Last agent check-in (certificate installed). */
  @Column({ type: 'timestamptz', nullable: true })
  installedAt!: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  installedAgentVersion!: string | null;
}
