import { Module } from '@nestjs/common';
import { CaModule } from '../ca/ca.module';
import { LicenseModule } from '../license/license.module';
import { IssuanceTimings } from './issuance-timings';
import { IssuanceRepository } from './issuance.repository';
import { IssuanceService } from './issuance.service';

/** Batch issuance of approved requests (no routes). */
@Module({
  imports: [CaModule, LicenseModule],
  providers: [IssuanceRepository, IssuanceService, IssuanceTimings],
  exports: [IssuanceService, IssuanceTimings],
})
export class IssuanceModule {}
