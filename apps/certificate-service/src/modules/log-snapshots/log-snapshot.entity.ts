import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { DeviceEntity } from '../devices/device.entity';

/**
 * A log snapshot an agent uploaded (`POST /requests/{id}/logs`). The bytes live in a file
 * (mode 0600) named `storageKey` under `CERTSVC_LOG_SNAPSHOT_DIR`; the row is the index.
 * Kept at most 7 days (the worker's purge). Owner: the log-snapshots module.
 */
@Entity('device_log_snapshots')
@Index(['deviceId', 'uploadedAt'])
@Index(['uploadedAt'])
export class LogSnapshotEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'uuid' })
  deviceId!: string;

  @ManyToOne(() => DeviceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'device_id' })
  device?: DeviceEntity;

  /** The certificate request whose agent secret authenticated the upload. */
  @Column({ type: 'uuid' })
  requestId!: string;

  @Column({ type: 'timestamptz' })
  uploadedAt!: Date;

  /** Bytes stored (as uploaded). */
  @Column({ type: 'integer' })
  sizeBytes!: number;

  /** `application/gzip` or `text/plain`. */
  @Column({ type: 'varchar', length: 32 })
  contentType!: string;

  /** Lowercase hex SHA-256 of the stored bytes. */
  @Column({ type: 'varchar', length: 64 })
  sha256!: string;

  /** File name under the snapshot directory (never a path from the client). */
  @Column({ type: 'varchar', length: 64 })
  storageKey!: string;
}
