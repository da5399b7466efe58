import { Injectable } from '@nestjs/common';
import { safeEqual, sha256Hex } from '@platform/auth';
import type { DeviceEntity } from './device.entity';
import { DevicesError } from './devices.errors';
import { DevicesRepository } from './devices.repository';

/** Authenticates a device by its serial and enrollment token (enroll routes). */
@Injectable()
export class DeviceCredentials {
  constructor(private readonly devices: DevicesRepository) {}

  /** Unknown serial and wrong token answer the same: no serial enumeration. */
  async authenticate(serial: string, token: string): Promise<DeviceEntity> {
    const device = await this.devices.findBySerial(serial);
    if (!device || !tokenMatches(device, token)) throw new DevicesError('enrollment_token_invalid');
    return device;
  }
}

export function tokenMatches(
  device: Pick<DeviceEntity, 'enrollmentTokenHash'>,
  token: string | undefined,
): boolean {
  return token !== undefined && safeEqual(sha256Hex(token), device.enrollmentTokenHash);
}
