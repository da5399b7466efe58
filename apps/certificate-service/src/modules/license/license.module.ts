import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DeploymentInstanceKeyBootstrap } from './deployment-instance-key.bootstrap';
import { DeploymentInstanceKeyService } from './deployment-instance-key.service';
import { EffectiveLicenseService } from './effective-license.service';
import { LicenseActivationService } from './license-activation.service';
import { LicenseAttestationService } from './license-attestation.service';
import { LicenseController } from './license.controller';
import { LicenseLedgerService } from './license-ledger.service';
import { LicenseReanchorService } from './license-reanchor.service';
import { LicenseRepository } from './license.repository';
import { LicenseSeatsService } from './license-seats.service';
import { LicenseSlotsService } from './license-slots.service';
import { LicenseStatusService } from './license-status.service';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';

/** Device slots, the usage ledger, signed licenses and `/api/v1/license/*`. */
@Module({
  imports: [AuditModule, RateLimitsModule, WebhookOutboxModule],
  controllers: [LicenseController],
  providers: [
    LicenseRepository,
    DeploymentInstanceKeyService,
    EffectiveLicenseService,
    LicenseLedgerService,
    LicenseSlotsService,
    LicenseSeatsService,
    LicenseStatusService,
    LicenseActivationService,
    LicenseAttestationService,
    LicenseReanchorService,
    DeploymentInstanceKeyBootstrap,
  ],
  exports: [EffectiveLicenseService, LicenseSlotsService, LicenseSeatsService],
})
export class LicenseModule {}
