import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface DeviceRef {
  id: string;
  serial: string;
  blocked: boolean;
  identityKey: string;
}

/** The block state of devices (the devices table belongs to the devices module). */
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
    await this.dataSource.query(
      `UPDATE devices SET blocked = $2,
         blocked_at = CASE WHEN $2 THEN COALESCE(blocked_at, $3) ELSE NULL END, updated_at = $3
       WHERE id = $1`,
      [deviceId, blocked, at],
    );
  }
}
