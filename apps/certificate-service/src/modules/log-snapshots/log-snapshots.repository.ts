import { Injectable } from '@nestjs/common';
import { DataSource, LessThan, MoreThanOrEqual } from 'typeorm';
import { LogRequestEntity } from './log-request.entity';
import { LogSnapshotEntity } from './log-snapshot.entity';

/** The only access to `device_log_snapshots` and `device_log_requests`. */
@Injectable()
export class LogSnapshotsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get snapshots() {
    return this.dataSource.getRepository(LogSnapshotEntity);
  }

  private get requests() {
    return this.dataSource.getRepository(LogRequestEntity);
  }

  /** Snapshots of a device uploaded at or after `since`, newest first. */
  listForDevice(deviceId: string, since: Date): Promise<LogSnapshotEntity[]> {
    return this.snapshots.find({
      where: { deviceId, uploadedAt: MoreThanOrEqual(since) },
      order: { uploadedAt: 'DESC', id: 'DESC' },
    });
  }

  findForDevice(deviceId: string, id: string, since: Date): Promise<LogSnapshotEntity | null> {
    return this.snapshots.findOneBy({ id, deviceId, uploadedAt: MoreThanOrEqual(since) });
  }

  /** Records the snapshot and clears the device's pending request, in one transaction. */
  async insertAndClearRequest(row: LogSnapshotEntity): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.getRepository(LogSnapshotEntity).insert(row);
      await em.getRepository(LogRequestEntity).delete({ deviceId: row.deviceId });
    });
  }

  /** Deletes one snapshot row; its storage key, or null when there was none. */
  async delete(deviceId: string, id: string): Promise<string | null> {
    const rows = (await this.dataSource.query(
      `DELETE FROM device_log_snapshots WHERE id = $1 AND device_id = $2 RETURNING storage_key`,
      [id, deviceId],
    )) as [{ storage_key: string }[], number];
    return rows[0][0]?.storage_key ?? null;
  }

  /** Deletes every row uploaded before `cutoff`; their storage keys. */
  async deleteOlderThan(cutoff: Date): Promise<string[]> {
    const found = await this.snapshots.find({
      select: { id: true, storageKey: true },
      where: { uploadedAt: LessThan(cutoff) },
    });
    if (found.length === 0) return [];
    await this.snapshots.delete(found.map((row) => row.id));
    return found.map((row) => row.storageKey);
  }

  /** Creates or refreshes the pending request of a device. */
  async upsertRequest(deviceId: string, requestedBy: string, at: Date): Promise<void> {
    await this.requests.upsert({ deviceId, requestedBy, requestedAt: at }, ['deviceId']);
  }

  /** True when a request was pending. */
  async deleteRequest(deviceId: string): Promise<boolean> {
    return ((await this.requests.delete({ deviceId })).affected ?? 0) > 0;
  }

  async hasRequest(deviceId: string): Promise<boolean> {
    return this.requests.existsBy({ deviceId });
  }
}
