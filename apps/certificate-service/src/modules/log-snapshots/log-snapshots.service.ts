import { randomUUID } from 'node:crypto';
import { isUUID } from 'class-validator';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { ReadStream } from 'node:fs';
import { actorLabel, type Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import type { DeviceEntity } from '../devices/device.entity';
import { DevicesRepository } from '../devices/devices.repository';
import type { CertificateRequestEntity } from '../requests/certificate-request.entity';
import { LogSnapshotFiles } from './log-snapshot-files';
import { retentionStart } from './log-snapshots-retention';
import type { LogSnapshotEntity } from './log-snapshot.entity';
import { LogSnapshotsError } from './log-snapshots.errors';
import { LogSnapshotsRepository } from './log-snapshots.repository';

export const LOG_SNAPSHOT_MEDIA_TYPE = 'application/gzip';

/** Agent log snapshots: upload, admin reads, deletion, snapshot requests. */
@Injectable()
export class LogSnapshotsService {
  /** Devices with an upload in progress in this process (one at a time per device). */
  private readonly uploading = new Set<string>();

  constructor(
    private readonly repository: LogSnapshotsRepository,
    private readonly files: LogSnapshotFiles,
    private readonly devices: DevicesRepository,
    private readonly audit: AuditService,
  ) {}

  /** Stores an agent upload for the device of `request`; clears its pending request. */
  async upload(
    request: CertificateRequestEntity,
    body: Readable,
    declaredLength: number | undefined,
    maxBytes: number,
  ): Promise<LogSnapshotEntity> {
    if (declaredLength !== undefined && declaredLength > maxBytes) {
      throw new LogSnapshotsError('log_snapshot_too_large');
    }
    if (declaredLength === 0) throw new LogSnapshotsError('log_snapshot_empty');
    if (this.uploading.has(request.deviceId)) {
      throw new LogSnapshotsError('log_snapshot_upload_in_progress');
    }
    this.uploading.add(request.deviceId);
    try {
      const id = randomUUID();
      const written = await this.files.write(id, body);
      const row: LogSnapshotEntity = {
        id,
        deviceId: request.deviceId,
        requestId: request.id,
        uploadedAt: new Date(),
        sizeBytes: written.sizeBytes,
        contentType: LOG_SNAPSHOT_MEDIA_TYPE,
        sha256: written.sha256,
        storageKey: written.storageKey,
      };
      try {
        await this.repository.insertAndClearRequest(row);
      } catch (error) {
        await this.files.remove(written.storageKey).catch(() => undefined);
        throw error;
      }
      return row;
    } finally {
      this.uploading.delete(request.deviceId);
    }
  }

  async list(serial: string, now = new Date()): Promise<LogSnapshotEntity[]> {
    const device = await this.device(serial);
    return this.repository.listForDevice(device.id, retentionStart(now));
  }

  /** The snapshot row and its file; audited (logs may hold personal data). */
  async download(
    actor: Actor,
    serial: string,
    logId: string,
  ): Promise<{ snapshot: LogSnapshotEntity; content: ReadStream }> {
    const device = await this.device(serial);
    const snapshot = isUUID(logId, 'loose')
      ? await this.repository.findForDevice(
          device.id,
          logId.toLowerCase(),
          retentionStart(new Date()),
        )
      : null;
    const content = snapshot ? await this.files.read(snapshot.storageKey) : null;
    if (!snapshot || !content) throw new LogSnapshotsError('log_snapshot_not_found');
    await this.audit.record({
      action: 'device.log_snapshot_download',
      actor,
      target: serial,
      details: { log_id: logId, sha256: snapshot.sha256 },
    });
    return { snapshot, content };
  }

  async delete(actor: Actor, serial: string, logId: string): Promise<void> {
    const device = await this.device(serial);
    const storageKey = isUUID(logId, 'loose')
      ? await this.repository.delete(device.id, logId.toLowerCase())
      : null;
    if (!storageKey) throw new LogSnapshotsError('log_snapshot_not_found');
    await this.files.remove(storageKey);
    await this.audit.record({
      action: 'device.log_snapshot_delete',
      actor,
      target: serial,
      details: { log_id: logId },
    });
  }

  /** The next `checkin` of the device answers `upload_logs: true`. */
  async requestLogs(actor: Actor, serial: string): Promise<Date> {
    const device = await this.device(serial);
    const at = new Date();
    await this.repository.upsertRequest(device.id, actorLabel(actor), at);
    await this.audit.record({ action: 'device.logs_request', actor, target: serial });
    return at;
  }

  async cancelRequest(actor: Actor, serial: string): Promise<void> {
    const device = await this.device(serial);
    if (!(await this.repository.deleteRequest(device.id))) {
      throw new LogSnapshotsError('log_request_not_found');
    }
    await this.audit.record({ action: 'device.logs_request_cancel', actor, target: serial });
  }

  /** Whether the device's agent should upload a snapshot (read by `checkin`). */
  uploadRequested(deviceId: string): Promise<boolean> {
    return this.repository.hasRequest(deviceId);
  }

  private async device(serial: string): Promise<DeviceEntity> {
    const device = await this.devices.findBySerial(serial);
    if (!device) throw new LogSnapshotsError('device_not_found');
    return device;
  }
}
