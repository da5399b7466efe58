import { Module } from '@nestjs/common';
import { NotificationQueueModule } from '../notification-queue/notification-queue.module';
import { SlaCheckRepository } from './sla-check.repository';
import { SlaCheckService } from './sla-check.service';

/** The worker side of remediation deadlines: the hourly check and its notification jobs. */
@Module({
  imports: [NotificationQueueModule],
  providers: [SlaCheckRepository, SlaCheckService],
  exports: [SlaCheckService],
})
export class SlaWorkerModule {}
