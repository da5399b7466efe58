import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { CertificateRequestEntity } from '../requests/certificate-request.entity';

/**
 * A certificate request awaiting an asynchronous CA (SCEP PENDING): written in the issuance
 * transaction that moves the request to `ca_pending`, polled by the worker's SCEP poller
 * (CertPoll with the same transaction id) until issued, refused or out of retry budget.
 * Deleted when the certificate is stored; kept with `next_poll_at` NULL and `last_error`
 * after a terminal failure (docs/certificate-service/scep.md).
 */
@Entity('scep_pending')
@Index(['nextPollAt'])
export class ScepPendingEntity {
  @PrimaryColumn({ type: 'uuid' })
  requestId!: string;

  @ManyToOne(() => CertificateRequestEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'request_id' })
  request?: CertificateRequestEntity;

  /** SCEP transactionID (the issuer's pending reference). */
  @Column({ type: 'varchar', length: 128 })
  transactionId!: string;

  /** Kind of the issuer that answered PENDING (`scep`). */
  @Column({ type: 'varchar', length: 32 })
  issuerKind!: string;

  /** What the issuer's `poll` needs besides the reference (plain JSON, no secrets). */
  @Column({ type: 'jsonb', nullable: true })
  pollState!: Record<string, string | number | boolean | null> | null;

  /** Certificate row fields decided at approval (device, purpose, subject, user). */
  @Column({ type: 'uuid' })
  deviceId!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: string;

  @Column({ type: 'varchar', length: 320 })
  subject!: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  userIdentity!: string | null;

  /** Polls sent so far (answers, errors and refusals alike). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** When the next CertPoll is due; NULL once the record ended (failed or out of budget). */
  @Column({ type: 'timestamptz', nullable: true })
  nextPollAt!: Date | null;

  /** Why the last poll did not issue (CA refusal, hostile answer, network), kept at the end. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
