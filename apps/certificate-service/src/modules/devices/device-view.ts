import type { Purpose } from '../../app/domain/purposes';
import type { DeviceEntity } from './device.entity';
import { effectivePurposes, type PurposeOverrides } from './purpose-access';

/** A device with its overrides, as the admin views show it. */
export interface DeviceView {
  device: DeviceEntity;
  overrides: PurposeOverrides;
  effectivePurposes: Purpose[];
}

export function deviceView(device: DeviceEntity, overrides: PurposeOverrides = {}): DeviceView {
  return {
    device,
    overrides,
    effectivePurposes: effectivePurposes(device.assignedPurposes, overrides),
  };
}
