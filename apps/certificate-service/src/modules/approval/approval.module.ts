import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { IssuanceModule } from '../issuance/issuance.module';
import { SettingsModule } from '../settings/settings.module';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';
import { ApprovalController } from './approval.controller';
import { ApprovalRepository } from './approval.repository';
import { ApprovalService } from './approval.service';
import { ConflictsService } from './conflicts.service';
import { RejectionService } from './rejection.service';

/** `POST /requests/approve`, `/requests/reject`, `/requests/check-conflicts`. */
@Module({
  imports: [AuditModule, IssuanceModule, SettingsModule, WebhookOutboxModule],
  controllers: [ApprovalController],
  providers: [ApprovalRepository, ApprovalService, RejectionService, ConflictsService],
})
export class ApprovalModule {}
