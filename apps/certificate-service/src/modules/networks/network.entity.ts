import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export const NETWORK_KINDS = ['wifi', 'wired'] as const;
export type NetworkKind = (typeof NETWORK_KINDS)[number];

/** EAP methods the service hands out: the supplicant presents a certificate issued here. */
export const EAP_METHODS = ['eap-tls'] as const;
export type EapMethod = (typeof EAP_METHODS)[number];

/** Name of the index that keeps at most one wired network active (mapped to a 409). */
export const ONE_ACTIVE_WIRED_INDEX = 'UQ_networks_one_active_wired';

/**
 * A Wi-Fi or wired 802.1X profile handed to agents. `disabled_at` is the soft delete; the
 * partial unique index lets at most one wired row be active (not disabled) at once, so two
 * concurrent creates or a restore racing a create cannot both win.
 */
@Entity('networks')
@Check('CHK_networks_kind', `"kind" IN ('wifi', 'wired')`)
@Index(ONE_ACTIVE_WIRED_INDEX, ['kind'], {
  unique: true,
  where: `"kind" = 'wired' AND "disabled_at" IS NULL`,
})
export class NetworkEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'varchar', length: 8 })
  kind!: NetworkKind;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** Wi-Fi only: 1 to 32 bytes of UTF-8. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  ssid!: string | null;

  /** Wi-Fi only: the SSID is not broadcast (the supplicant probes for it). */
  @Column({ type: 'boolean', default: false })
  hidden!: boolean;

  @Column({ type: 'varchar', length: 32 })
  eapMethod!: EapMethod;

  /** Purpose whose certificate the supplicant presents (`wifi` covers Wi-Fi and wired). */
  @Column({ type: 'varchar', length: 16, default: 'wifi' })
  purpose!: string;

  /** Lower-case DNS names; empty means the server name is not checked. */
  @Column({ type: 'text', array: true, default: '{}' })
  radiusServerNames!: string[];

  @Column({ type: 'boolean', default: false })
  agentProfileDisabled!: boolean;

  @Column({ type: 'boolean', default: false })
  macosAgentProfileDisabled!: boolean;

  @Column({ type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;

  @Column({ type: 'varchar', length: 320 })
  updatedBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
