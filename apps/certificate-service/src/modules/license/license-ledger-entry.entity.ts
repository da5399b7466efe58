import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { LedgerEvent } from './license-ledger';

/**
 * Append-only usage ledger: one row per counted first issuance or decommission, chained by
 * SHA-256 (`hash` covers seq, identity, event, time and `prev_hash`). Never updated or
 * deleted; the tamper check and re-anchoring (later issue) read it.
 */
@Entity('license_ledger')
@Check('CHK_license_ledger_event', `"event" IN ('count','decommission')`)
export class LicenseLedgerEntryEntity {
  /** bigint: returned by pg as a string. */
  @PrimaryColumn({ type: 'bigint' })
  seq!: string;

  @Index()
  @Column({ type: 'varchar', length: 200 })
  identityKey!: string;

  @Column({ type: 'varchar', length: 16 })
  event!: LedgerEvent;

  @Column({ type: 'timestamptz' })
  at!: Date;

  @Column({ type: 'varchar', length: 64 })
  prevHash!: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  hash!: string;
}
