import { Injectable } from '@nestjs/common';
import { LogSnapshotFiles } from './log-snapshot-files';
import { LogSnapshotsRepository } from './log-snapshots.repository';

/** Snapshots are kept at most 7 days (specification, Limits). */
export const LOG_SNAPSHOT_RETENTION_MS = 7 * 24 * 3_600_000;

export function retentionStart(now: Date): Date {
  return new Date(now.getTime() - LOG_SNAPSHOT_RETENTION_MS);
}

/** The worker's purge of agent log snapshots (rows, then files). */
@Injectable()
export class LogSnapshotsRetention {
  constructor(
    private readonly repository: LogSnapshotsRepository,
    private readonly files: LogSnapshotFiles,
  ) {}

  /**
   * Deletes rows uploaded more than 7 days before `now` and their files, then any file left
   * in the directory (abandoned `.part`, a deleted device's) last modified before that.
   * How many rows went.
   */
  async purge(now: Date): Promise<number> {
    const cutoff = retentionStart(now);
    const keys = await this.repository.deleteOlderThan(cutoff);
    for (const key of keys) await this.files.remove(key);
    await this.files.removeOlderThan(cutoff);
    return keys.length;
  }
}
