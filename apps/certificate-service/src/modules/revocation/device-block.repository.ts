import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { setDeviceBlocked } from '../devices/device-writes.repository';

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
  constructor(private readonly dataSource: DataSource) {}

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

  async setBlocked(deviceId: string, blocked: boolean, at: Date): Promise<void> {
    await setDeviceBlocked(this.dataSource.manager, deviceId, blocked, at);
  }
}
