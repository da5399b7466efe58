import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { LicenseModule } from '../license/license.module';
import { DeviceCredentials } from './device-credentials.service';
import { DeviceKeysService } from './device-keys.service';
import { DevicesController } from './devices.controller';
import { DevicesRepository } from './devices.repository';
import { DevicesService } from './devices.service';
import { PurposeAdminController } from './purpose-admin.controller';
import { PurposeOverridesService } from './purpose-overrides.service';
import { PurposeRequestsRepository } from './purpose-requests.repository';
import { PurposeRequestsService } from './purpose-requests.service';

@Module({
  imports: [AuditModule, LicenseModule],
  controllers: [DevicesController, PurposeAdminController],
  providers: [
    DevicesRepository,
    PurposeRequestsRepository,
    DevicesService,
    DeviceKeysService,
    DeviceCredentials,
    PurposeOverridesService,
    PurposeRequestsService,
  ],
  exports: [DevicesRepository, DevicesService, DeviceCredentials, PurposeRequestsService],
})
export class DevicesModule {}
