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
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from './device.entity';

export const PURPOSE_REQUEST_STATUSES = ['pending', 'approved', 'denied'] as const;
export type PurposeRequestStatus = (typeof PURPOSE_REQUEST_STATUSES)[number];

/** A purpose a device asked for; an administrator approves (assigns) or denies it. */
@Entity('device_purpose_requests')
@Index('UQ_device_purpose_requests_pending', ['deviceId', 'purpose'], {
  unique: true,
  where: `"status" = 'pending'`,
})
@Index(['status', 'createdAt'])
@Check('CHK_device_purpose_requests_status', `"status" IN ('pending','approved','denied')`)
export class PurposeRequestEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'uuid' })
  deviceId!: string;

  @ManyToOne(() => DeviceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'device_id' })
  device?: DeviceEntity;

  @Column({ type: 'varchar', length: 16 })
  purpose!: Purpose;

  @Column({ type: 'varchar', length: 16 })
  status!: PurposeRequestStatus;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @Column({ type: 'varchar', length: 320, nullable: true })
  decidedBy!: string | null;
}
