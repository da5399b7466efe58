import { Module } from '@nestjs/common';
import { NotificationQueueModule } from '../notification-queue/notification-queue.module';
import { DeliveryJobs } from './delivery-jobs';
import { NotificationDeliveriesController } from './notification-deliveries.controller';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { NotificationDeliveriesService } from './notification-deliveries.service';

/**
 * API side: the project's deliveries (list, retry) and the per-channel summary the channel
 * list shows (NotificationDeliveriesRepository.summaries, used by modules/plugin-channels).
 */
@Module({
  imports: [NotificationQueueModule],
  controllers: [NotificationDeliveriesController],
  providers: [NotificationDeliveriesRepository, NotificationDeliveriesService, DeliveryJobs],
  exports: [NotificationDeliveriesRepository],
})
export class NotificationsModule {}
