import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Checkpoints of the usage ledger, signed with the deployment instance key: after every
 * append (`anchor` false) the ledger head (`seq`, `hash`) and the number of slots in use;
 * `reanchor` writes one with `anchor` true: the rows up to it must keep its digest, the rows
 * after it must chain from its hash.
 */
@Entity('license_checkpoints')
export class LicenseCheckpointEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  /** Ledger seq of the head (0 for an empty ledger). */
  @Column({ type: 'bigint' })
  seq!: string;

  @Column({ type: 'varchar', length: 64 })
  hash!: string;

  @Column({ type: 'integer' })
  slotCount!: number;

  @Column({ type: 'boolean' })
  anchor!: boolean;

  /** Anchors: SHA-256 of every ledger row up to `seq` as stored (re-anchoring forgives them). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  prefixDigest!: string | null;

  @Column({ type: 'timestamptz' })
  at!: Date;

  /** Ed25519 by the deployment instance key over `checkpointMessage`, base64. */
  @Column({ type: 'varchar', length: 100 })
  signature!: string;
}
