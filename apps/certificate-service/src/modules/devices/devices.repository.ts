import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from './device.entity';
import type { PurposeOverrides } from './purpose-access';
import { PurposeOverrideEntity, type StoredOverride } from './purpose-override.entity';

export interface DeviceFilter {
  /** Case-insensitive substring of the serial. */
  serial?: string;
  owner?: string;
  platform?: string;
  agentVersion?: string;
  blocked?: boolean;
  /** Devices with this purpose assigned. */
  purpose?: Purpose;
}

export interface AgentVersionCount {
  agentVersion: string | null;
  devices: number;
  lastSeenAt: Date | null;
}

export type DeviceChanges = Partial<
  Pick<
    DeviceEntity,
    | 'owner'
    | 'assignedPurposes'
    | 'enrollmentTokenHash'
    | 'enrollmentTokenRotatedAt'
    | 'tpmEkCertSerial'
    | 'tpmAkPublic'
    | 'enrollKeyHash'
    | 'continuityKey'
  >
>;

export interface OverrideChange {
  purpose: Purpose;
  /** null: back to inherit (the row is removed). */
  mode: StoredOverride | null;
}

@Injectable()
export class DevicesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get devices() {
    return this.dataSource.getRepository(DeviceEntity);
  }

  private get overrides() {
    return this.dataSource.getRepository(PurposeOverrideEntity);
  }

  findBySerial(serial: string): Promise<DeviceEntity | null> {
    return this.devices.findOneBy({ serial });
  }

  findById(id: string): Promise<DeviceEntity | null> {
    return this.devices.findOneBy({ id });
  }

  async page(
    filter: DeviceFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: DeviceEntity[]; total: number }> {
    const [items, total] = await this.filtered(filter).take(limit).skip(offset).getManyAndCount();
    return { items, total };
  }

  all(filter: DeviceFilter, max: number): Promise<DeviceEntity[]> {
    return this.filtered(filter).take(max).getMany();
  }

  async agentVersions(): Promise<AgentVersionCount[]> {
    const rows = await this.devices
      .createQueryBuilder('d')
      .select('d.agent_version', 'agent_version')
      .addSelect('count(*)::int', 'devices')
      .addSelect('max(d.last_seen_at)', 'last_seen_at')
      .groupBy('d.agent_version')
      .orderBy('devices', 'DESC')
      .addOrderBy('agent_version', 'ASC')
      .getRawMany<{ agent_version: string | null; devices: number; last_seen_at: Date | null }>();
    return rows.map((r) => ({
      agentVersion: r.agent_version,
      devices: r.devices,
      lastSeenAt: r.last_seen_at,
    }));
  }

  /** Updates a device (inside `em`'s transaction when given) and reads it back. */
  async update(id: string, changes: DeviceChanges, em?: EntityManager): Promise<DeviceEntity> {
    const devices = em ? em.getRepository(DeviceEntity) : this.devices;
    await devices.update({ id }, changes);
    return devices.findOneByOrFail({ id });
  }

  /** Overrides of each device (devices without any are absent from the map). */
  async overridesOf(deviceIds: readonly string[]): Promise<Map<string, PurposeOverrides>> {
    const map = new Map<string, PurposeOverrides>();
    if (deviceIds.length === 0) return map;
    const rows = await this.overrides.findBy({ deviceId: In([...deviceIds]) });
    for (const row of rows) {
      const current = map.get(row.deviceId) ?? {};
      current[row.purpose] = row.mode;
      map.set(row.deviceId, current);
    }
    return map;
  }

  async setOverrides(
    deviceId: string,
    changes: readonly OverrideChange[],
    updatedBy: string,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const repo = em.getRepository(PurposeOverrideEntity);
      for (const change of changes) {
        if (change.mode === null) {
          await repo.delete({ deviceId, purpose: change.purpose });
        } else {
          await repo.upsert({ deviceId, purpose: change.purpose, mode: change.mode, updatedBy }, [
            'deviceId',
            'purpose',
          ]);
        }
      }
    });
  }

  /** Devices and overrides a fleet-wide reset of `purpose` would touch. */
  async overrideCost(purpose: Purpose): Promise<{ allow: number; deny: number }> {
    const rows = await this.overrides
      .createQueryBuilder('o')
      .select('o.mode', 'mode')
      .addSelect('count(*)::int', 'n')
      .where('o.purpose = :purpose', { purpose })
      .groupBy('o.mode')
      .getRawMany<{ mode: StoredOverride; n: number }>();
    const count = (mode: StoredOverride) => rows.find((r) => r.mode === mode)?.n ?? 0;
    return { allow: count('allow'), deny: count('deny') };
  }

  /** Back to inherit on every device; returns the number of overrides removed. */
  async resetOverrides(purpose: Purpose): Promise<number> {
    const result = await this.overrides.delete({ purpose });
    return result.affected ?? 0;
  }

  private filtered(filter: DeviceFilter): SelectQueryBuilder<DeviceEntity> {
    const q = this.devices.createQueryBuilder('d');
    if (filter.serial) {
      q.andWhere(`d.serial ILIKE :serial ESCAPE '\\'`, {
        serial: `%${filter.serial.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      });
    }
    if (filter.owner) q.andWhere('d.owner = :owner', { owner: filter.owner });
    if (filter.platform) q.andWhere('d.platform = :platform', { platform: filter.platform });
    if (filter.agentVersion) {
      q.andWhere('d.agent_version = :agentVersion', { agentVersion: filter.agentVersion });
    }
    if (filter.blocked !== undefined)
      q.andWhere('d.blocked = :blocked', { blocked: filter.blocked });
    if (filter.purpose) {
      q.andWhere(':purpose = ANY(d.assigned_purposes)', { purpose: filter.purpose });
    }
    return q.orderBy('d.created_at', 'DESC').addOrderBy('d.id', 'ASC');
  }
}
