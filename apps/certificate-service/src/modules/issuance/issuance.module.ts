import { Module } from '@nestjs/common';
import { CaModule } from '../ca/ca.module';
import { LicenseModule } from '../license/license.module';
import { SshModule } from '../ssh/ssh.module';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';
import { IssuanceTimings } from './issuance-timings';
import { IssuanceRepository } from './issuance.repository';
import { IssuanceService } from './issuance.service';

/** Batch issuance of approved requests (no routes). */
@Module({
  imports: [CaModule, LicenseModule, SshModule, WebhookOutboxModule],
  providers: [IssuanceRepository, IssuanceService, IssuanceTimings],
  exports: [IssuanceService, IssuanceTimings],
})
export class IssuanceModule {}
