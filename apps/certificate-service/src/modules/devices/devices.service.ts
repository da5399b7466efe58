import { Injectable } from '@nestjs/common';
import { PURPOSES, type Purpose } from '../../app/domain/purposes';
import { AuditService } from '../audit/audit.service';
import { LicenseSeatsService } from '../license/license-seats.service';
import { actorLabel, type Actor } from '../../app/access/actor';
import type { DeviceEntity } from './device.entity';
import { deviceView, type DeviceView } from './device-view';
import { DevicesError } from './devices.errors';
import {
  DevicesRepository,
  type AgentVersionCount,
  type DeviceFilter,
  type OverrideChange,
} from './devices.repository';
import type { OverrideMode } from './purpose-access';

/** Admin views of devices and the changes to purposes, owner and overrides. */
@Injectable()
export class DevicesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly audit: AuditService,
    private readonly license: LicenseSeatsService,
  ) {}

  async list(
    filter: DeviceFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: DeviceView[]; total: number }> {
    const { items, total } = await this.devices.page(filter, limit, offset);
    return { items: await this.views(items), total };
  }

  async export(filter: DeviceFilter, max: number): Promise<DeviceView[]> {
    return this.views(await this.devices.all(filter, max));
  }

  agentVersions(): Promise<AgentVersionCount[]> {
    return this.devices.agentVersions();
  }

  async get(serial: string): Promise<DeviceView> {
    const device = await this.found(serial);
    return (await this.views([device]))[0];
  }

  async setPurposes(actor: Actor, serial: string, purposes: Purpose[]): Promise<DeviceView> {
    const before = await this.found(serial);
    const assigned = PURPOSES.filter((p) => purposes.includes(p));
    const after = await this.license.assignPurposes(before.id, assigned, (em) =>
      this.devices.update(before.id, { assignedPurposes: assigned }, em),
    );
    await this.audit.record({
      action: 'device.purposes_change',
      actor,
      target: serial,
      details: { old: before.assignedPurposes, new: assigned },
    });
    return (await this.views([after]))[0];
  }

  async setOwner(actor: Actor, serial: string, owner: string | null): Promise<DeviceView> {
    const before = await this.found(serial);
    const after = await this.devices.update(before.id, { owner });
    await this.audit.record({
      action: 'device.owner_change',
      actor,
      target: serial,
      details: { old: before.owner, new: owner },
    });
    return (await this.views([after]))[0];
  }

  async setOverrides(
    actor: Actor,
    serial: string,
    requested: Partial<Record<Purpose, OverrideMode>>,
  ): Promise<DeviceView> {
    const device = await this.found(serial);
    const old = (await this.devices.overridesOf([device.id])).get(device.id) ?? {};
    const changes: OverrideChange[] = PURPOSES.flatMap((purpose) => {
      const mode = requested[purpose];
      if (mode === undefined) return [];
      return [{ purpose, mode: mode === 'inherit' ? null : mode }];
    });
    await this.devices.setOverrides(device.id, changes, actorLabel(actor));
    const view = (await this.views([device]))[0];
    await this.audit.record({
      action: 'device.purpose_overrides_change',
      actor,
      target: serial,
      details: { old, new: view.overrides },
    });
    return view;
  }

  async found(serial: string): Promise<DeviceEntity> {
    const device = await this.devices.findBySerial(serial);
    if (!device) throw new DevicesError('device_not_found');
    return device;
  }

  private async views(devices: DeviceEntity[]): Promise<DeviceView[]> {
    const overrides = await this.devices.overridesOf(devices.map((d) => d.id));
    return devices.map((d) => deviceView(d, overrides.get(d.id)));
  }
}
