import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { setDeviceBlocked } from '../devices/device-writes.repository';
import { WebhookOutbox } from '../webhooks/webhook-outbox';

export interface DeviceRef {
  id: string;
  serial: string;
  blocked: boolean;
  identityKey: string;
}

/**
 * The block state of devices: read here, written through the devices module (the owner of the
 * devices table, device-writes.repository.ts).
 */
@Injectable()
export class DeviceBlockRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  async findBySerial(serial: string): Promise<DeviceRef | null> {
    const rows = (await this.dataSource.query(
      `SELECT id, serial, blocked, identity_key FROM devices WHERE serial = $1`,
      [serial],
    )) as { id: string; serial: string; blocked: boolean; identity_key: string }[];
    const r = rows[0];
    return r
      ? { id: r.id, serial: r.serial, blocked: r.blocked, identityKey: r.identity_key }
      : null;
  }

  /**
   * Sets the block state; a change writes its `device.blocked` / `device.unblocked` webhook
   * event in the same transaction (a repeated unblock reports nothing).
   */
  async setBlocked(device: DeviceRef, blocked: boolean, at: Date): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await setDeviceBlocked(em, device.id, blocked, at);
      if (device.blocked === blocked) return;
      await this.outbox.enqueue(em, [
        {
          type: blocked ? 'device.blocked' : 'device.unblocked',
          data: { device_id: device.id, serial: device.serial, at: at.toISOString() },
        },
      ]);
    });
  }
}
