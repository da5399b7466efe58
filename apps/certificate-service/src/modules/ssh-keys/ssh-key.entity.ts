import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';

/** States of a registered raw SSH key: pending → active → revoked, pending → rejected. */
export const SSH_KEY_STATES = ['pending', 'active', 'revoked', 'rejected'] as const;
export type SshKeyState = (typeof SSH_KEY_STATES)[number];

/** How an active key was approved: by a person (or service account) or by the auto-approval setting. */
export const SSH_KEY_APPROVALS = ['manual', 'auto'] as const;
export type SshKeyApproval = (typeof SSH_KEY_APPROVALS)[number];

/** Outcome of the binding-to-person check (see docs/certificate-service/ssh-keys.md). */
export const SSH_KEY_BINDING_VERDICTS = [
  'not_checked',
  'match',
  'contradiction',
  'unverifiable',
] as const;
export type SshKeyBindingVerdict = (typeof SSH_KEY_BINDING_VERDICTS)[number];

/**
 * A raw (hardware-backed) SSH public key registered by a device. Rows are never deleted: a
 * revoked key stays in the KRL for good. No foreign key to `devices` for the same reason.
 */
@Entity('ssh_keys')
@Index('UQ_ssh_keys_live_fingerprint', ['fingerprint'], {
  unique: true,
  where: `"state" IN ('pending','active')`,
})
@Index(['fingerprint'])
@Index(['state', 'createdAt'])
@Index(['owner', 'state'])
@Check('CHK_ssh_keys_state', `"state" IN ('pending','active','revoked','rejected')`)
@Check('CHK_ssh_keys_approval', `"approval" IS NULL OR "approval" IN ('manual','auto')`)
@Check(
  'CHK_ssh_keys_binding_verdict',
  `"binding_verdict" IN ('not_checked','match','contradiction','unverifiable')`,
)
export class SshKeyEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Index()
  @Column({ type: 'uuid' })
  deviceId!: string;

  /** The person (lower-cased email) the key is bound to: the device owner; null without one. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  owner!: string | null;

  /** Key type as in the key blob, e.g. `ssh-ed25519`, `sk-ecdsa-sha2-nistp256@openssh.com`. */
  @Column({ type: 'varchar', length: 64 })
  keyType!: string;

  /** The public key blob (SSH wire format, what authorized_keys carries base64-encoded). */
  @Column({ type: 'bytea' })
  publicKey!: Buffer;

  /** `SHA256:` + unpadded base64 of SHA-256 over the blob, as `ssh-keygen -lf` prints it. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  comment!: string | null;

  @Column({ type: 'varchar', length: 16 })
  state!: SshKeyState;

  @Column({ type: 'varchar', length: 8, nullable: true })
  approval!: SshKeyApproval | null;

  @Column({ type: 'varchar', length: 16 })
  bindingVerdict!: SshKeyBindingVerdict;

  /** Why the verdict is what it is (which names were compared). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  bindingDetail!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  approvedAt!: Date | null;

  /** Email of the approver, `API` for a service account, `auto` for auto-approval. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  approvedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  rejectedAt!: Date | null;

  @Column({ type: 'varchar', length: 320, nullable: true })
  rejectedBy!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ type: 'varchar', length: 320, nullable: true })
  revokedBy!: string | null;

  /** Reason given for a rejection or revocation (or the binding check's refusal). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  statusReason!: string | null;
}
