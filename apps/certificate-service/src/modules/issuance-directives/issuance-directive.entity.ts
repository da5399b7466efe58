import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';
import type { DirectivePurpose, DirectiveState } from './directive-states';

/**
 * An issuance directive: an administrator addresses a user purpose to one person on one
 * device (docs/certificate-service/issuance-directives.md). At most one open (`pending` or
 * `delivered`) directive per device, purpose and person.
 */
@Entity('issuance_directives')
@Check(
  'CHK_issuance_directives_state',
  `"state" IN ('pending','delivered','done','failed','cancelled')`,
)
@Check('CHK_issuance_directives_purpose', `"purpose" IN ('user_mtls','ad_logon')`)
@Index(['state', 'createdAt'])
@Index(['deviceId', 'createdAt'])
@Index('UQ_issuance_directives_open', ['deviceId', 'purpose', 'person'], {
  unique: true,
  where: `"state" IN ('pending', 'delivered')`,
})
export class IssuanceDirectiveEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'uuid' })
  deviceId!: string;

  /** A device's directives go with it. */
  @ManyToOne(() => DeviceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'device_id' })
  device?: DeviceEntity;

  @Column({ type: 'varchar', length: 16 })
  purpose!: DirectivePurpose;

  /** The person (lower-cased email), as the agent names the user in `enroll/user`. */
  @Column({ type: 'varchar', length: 320 })
  person!: string;

  /** User principal name for `ad_logon` (required there), optional otherwise. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  upn!: string | null;

  @Column({ type: 'varchar', length: 16 })
  state!: DirectiveState;

  @Column({ type: 'varchar', length: 320 })
  createdBy!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  /** First check-in answer that carried the directive. */
  @Column({ type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  /** When the agent reported `done` or `failed`. */
  @Column({ type: 'timestamptz', nullable: true })
  reportedAt!: Date | null;

  /** The agent's outcome message (≤ 1000 characters). */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  outcomeMessage!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt!: Date | null;

  @Column({ type: 'varchar', length: 320, nullable: true })
  cancelledBy!: string | null;
}
