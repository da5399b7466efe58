import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const SSH_REVOCATION_KINDS = ['key', 'certificate'] as const;
export type SshRevocationKind = (typeof SSH_REVOCATION_KINDS)[number];

/**
 * The revocation feed for session watchers on target hosts (`GET /api/v1/keyholder/revocations`):
 * one row per revoked raw key or SSH certificate. `id` grows in commit order (writers append
 * under one transaction-scoped advisory lock), so a watcher reading `after=<last id>` misses
 * nothing.
 */
@Entity('ssh_revocations')
@Check('CHK_ssh_revocations_kind', `"kind" IN ('key','certificate')`)
export class SshRevocationEntity {
  /** bigint: returned by pg as a string. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: SshRevocationKind;

  /** Registered key id (kind `key`). */
  @Index()
  @Column({ type: 'uuid', nullable: true })
  sshKeyId!: string | null;

  /** Fingerprint of the revoked key (of the certified key for a certificate). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  fingerprint!: string | null;

  /** Certificate serial, decimal (kind `certificate`). */
  @Column({ type: 'varchar', length: 20, nullable: true })
  certificateSerial!: string | null;

  /** Certificate key id (kind `certificate`). */
  @Column({ type: 'varchar', length: 255, nullable: true })
  certificateKeyId!: string | null;

  @Column({ type: 'uuid', nullable: true })
  deviceId!: string | null;

  /** Person the key or certificate belonged to. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  owner!: string | null;

  /** Login names that lose this key or certificate (owner's login, aliases, certificate principals). */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  principals!: string[];

  @Column({ type: 'varchar', length: 255, nullable: true })
  reason!: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  revokedAt!: Date;
}
