import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';

/** A machine known by the serial its agent claims. */
@Entity('devices')
export class DeviceEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 128 })
  serial!: string;

  /** SHA-256 of the enrollment token (the token is shown once). */
  @Column({ type: 'varchar', length: 64 })
  enrollmentTokenHash!: string;

  @Column({ type: 'timestamptz', nullable: true })
  enrollmentTokenRotatedAt!: Date | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  hostname!: string | null;

  @Index()
  @Column({ type: 'varchar', length: 320, nullable: true })
  owner!: string | null;

  /** Purposes assigned by an administrator (new devices start with `wifi`). */
  @Column({ type: 'text', array: true })
  assignedPurposes!: Purpose[];

  @Column({ type: 'boolean', default: false })
  blocked!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  blockedAt!: Date | null;

  @Index()
  @Column({ type: 'varchar', length: 64, nullable: true })
  agentVersion!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  platform!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastSeenAt!: Date | null;

  /** Licence identity (`ek:`, `sn:` or `pk:`), see `device-identity.ts`. */
  @Column({ type: 'varchar', length: 200 })
  identityKey!: string;

  /** Serial of the TPM endorsement-key certificate (TPM binding). */
  @Column({ type: 'varchar', length: 128, nullable: true })
  tpmEkCertSerial!: string | null;

  /** Attestation key confirmed by credential activation (TPM pin). */
  @Column({ type: 'bytea', nullable: true })
  tpmAkPublic!: Buffer | null;

  /** SHA-256 of the SPKI of the request key pinned at the first enrollment. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  enrollKeyHash!: string | null;

  @Column({ type: 'text', nullable: true })
  continuityKey!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
