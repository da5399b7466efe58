import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DeploymentInstanceKeyBootstrap } from './deployment-instance-key.bootstrap';
import { LicenseController } from './license.controller';
import { LicenseRepository } from './license.repository';
import { LicenseSeatsService } from './license-seats.service';
import { LicenseService } from './license.service';

/** Device slots, the usage ledger, signed licenses and `/api/v1/license/*`. */
@Module({
  imports: [AuditModule],
  controllers: [LicenseController],
  providers: [
    LicenseRepository,
    LicenseService,
    LicenseSeatsService,
    DeploymentInstanceKeyBootstrap,
  ],
  exports: [LicenseService, LicenseSeatsService],
})
export class LicenseModule {}
