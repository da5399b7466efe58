import { Injectable } from '@nestjs/common';
import type { Purpose } from '../../app/domain/purposes';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../../app/access/actor';
import { DevicesRepository } from './devices.repository';

export interface OverrideCost {
  purpose: Purpose;
  /** Devices whose override a reset would remove (one override per device and purpose). */
  devices: number;
  allow: number;
  deny: number;
}

/** Fleet-wide view and reset of the per-device overrides of one purpose. */
@Injectable()
export class PurposeOverridesService {
  constructor(
    private readonly devices: DevicesRepository,
    private readonly audit: AuditService,
  ) {}

  async cost(purpose: Purpose): Promise<OverrideCost> {
    const { allow, deny } = await this.devices.overrideCost(purpose);
    return { purpose, devices: allow + deny, allow, deny };
  }

  async reset(actor: Actor, purpose: Purpose): Promise<{ purpose: Purpose; reset: number }> {
    const before = await this.cost(purpose);
    const reset = await this.devices.resetOverrides(purpose);
    await this.audit.record({
      action: 'purpose_overrides.reset',
      actor,
      target: purpose,
      details: { removed: reset, old: { allow: before.allow, deny: before.deny } },
    });
    return { purpose, reset };
  }
}
