import { Injectable } from '@nestjs/common';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceCredentials } from '../devices/device-credentials.service';
import { DevicesService } from '../devices/devices.service';
import type { DeviceView } from '../devices/device-view';
import { PurposeRequestsService, type PurposeAsk } from '../devices/purpose-requests.service';

/** What a device may learn and ask about its own purposes (serial + enrollment token). */
@Injectable()
export class DeviceSelfService {
  constructor(
    private readonly credentials: DeviceCredentials,
    private readonly devices: DevicesService,
    private readonly purposeRequests: PurposeRequestsService,
  ) {}

  async purposes(serial: string, token: string): Promise<DeviceView> {
    await this.credentials.authenticate(serial, token);
    return this.devices.get(serial);
  }

  async askPurpose(
    serial: string,
    token: string,
    purpose: Purpose,
    note: string | null,
  ): Promise<PurposeAsk> {
    const device = await this.credentials.authenticate(serial, token);
    return this.purposeRequests.ask(device, purpose, note);
  }
}
