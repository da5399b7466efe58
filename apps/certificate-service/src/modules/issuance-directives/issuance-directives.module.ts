import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { AuditModule } from '../audit/audit.module';
import { DevicesModule } from '../devices/devices.module';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';
import { DirectiveAgentGuard } from './directive-agent.guard';
import { DirectiveReportController } from './directive-report.controller';
import { IssuanceDirectivesController } from './issuance-directives.controller';
import { IssuanceDirectivesRepository } from './issuance-directives.repository';
import { IssuanceDirectivesService } from './issuance-directives.service';

/** Owner of `issuance_directives` (docs/certificate-service/issuance-directives.md). */
@Module({
  imports: [AuditModule, DevicesModule, RateLimitsModule, WebhookOutboxModule],
  controllers: [IssuanceDirectivesController, DirectiveReportController],
  providers: [IssuanceDirectivesRepository, IssuanceDirectivesService, DirectiveAgentGuard],
  exports: [IssuanceDirectivesService],
})
export class IssuanceDirectivesModule {}
