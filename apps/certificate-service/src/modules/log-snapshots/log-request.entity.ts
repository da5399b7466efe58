import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';

/**
 * An admin asked for a fresh snapshot (`POST /devices/{serial}/request-logs`): the device's
 * next `checkin` answer carries `upload_logs: true` until an upload arrives or the request is
 * cancelled. At most one per device. Owner: the log-snapshots module.
 */
@Entity('device_log_requests')
export class LogRequestEntity {
  @PrimaryColumn({ type: 'uuid' })
  deviceId!: string;

  @OneToOne(() => DeviceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'device_id' })
  device?: DeviceEntity;

  @Column({ type: 'timestamptz' })
  requestedAt!: Date;

  /** Actor label of the admin who asked. */
  @Column({ type: 'varchar', length: 320 })
  requestedBy!: string;
}
