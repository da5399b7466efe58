import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CaModule } from '../ca/ca.module';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';
import { ScepPendingRepository } from './scep-pending.repository';
import { ScepPollerService } from './scep-poller.service';

/** SCEP pending records (`scep_pending`) and their poller (run by the worker). */
@Module({
  imports: [CaModule, AuditModule, WebhookOutboxModule],
  providers: [ScepPendingRepository, ScepPollerService],
  exports: [ScepPollerService],
})
export class ScepModule {}
