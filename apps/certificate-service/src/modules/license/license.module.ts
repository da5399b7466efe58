import { Module } from '@nestjs/common';
import { DeploymentInstanceKeyBootstrap } from './deployment-instance-key.bootstrap';
import { LicenseController } from './license.controller';
import { LicenseRepository } from './license.repository';
import { LicenseService } from './license.service';

/** Device slots, the usage ledger and `/api/v1/license/*` (free mode). */
@Module({
  controllers: [LicenseController],
  providers: [LicenseRepository, LicenseService, DeploymentInstanceKeyBootstrap],
  exports: [LicenseService],
})
export class LicenseModule {}
