import {
  Check,
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from './device.entity';

/** An explicit per-device decision for a purpose; `inherit` is the absence of a row. */
export type StoredOverride = 'allow' | 'deny';

@Entity('device_purpose_overrides')
@Check('CHK_device_purpose_overrides_mode', `"mode" IN ('allow','deny')`)
export class PurposeOverrideEntity {
  @PrimaryColumn({ type: 'uuid' })
  deviceId!: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  purpose!: Purpose;

  @ManyToOne(() => DeviceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'device_id' })
  device?: DeviceEntity;

  @Column({ type: 'varchar', length: 8 })
  mode!: StoredOverride;

  @Column({ type: 'varchar', length: 320 })
  updatedBy!: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
