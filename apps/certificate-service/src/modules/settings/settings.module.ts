import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CorpAllowlistController } from './corp-allowlist.controller';
import { CorpAllowlistRepository } from './corp-allowlist.repository';
import { CorpAllowlistService } from './corp-allowlist.service';
import { CorpOwnershipCheck } from './corp-ownership-check';
import { CorpOwnershipWebhook } from './corp-ownership-webhook';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';
import { PolicySettingsRepository } from './policy-settings.repository';
import { PolicySettingsService } from './policy-settings.service';
import { SettingsController } from './settings.controller';
import { SystemSettingsController } from './system-settings.controller';

/** Enroll source-auth and corp-ownership policies, the corp allowlist and its check. */
@Module({
  imports: [AuditModule, WebhookOutboxModule],
  controllers: [SettingsController, CorpAllowlistController, SystemSettingsController],
  providers: [
    PolicySettingsRepository,
    CorpAllowlistRepository,
    PolicySettingsService,
    CorpAllowlistService,
    CorpOwnershipCheck,
    CorpOwnershipWebhook,
  ],
  exports: [PolicySettingsService, CorpOwnershipCheck],
})
export class SettingsModule {}
