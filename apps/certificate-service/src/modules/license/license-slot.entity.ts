import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A device slot in use: one row per counted identity key, removed by decommission. */
@Entity('license_slots')
export class LicenseSlotEntity {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  identityKey!: string;

  /** Device whose first issuance was counted (informational; devices may be re-created). */
  @Column({ type: 'uuid', nullable: true })
  deviceId!: string | null;

  @Column({ type: 'timestamptz' })
  countedAt!: Date;

  /** Ledger row that counted it. */
  @Column({ type: 'bigint' })
  ledgerSeq!: string;
}
