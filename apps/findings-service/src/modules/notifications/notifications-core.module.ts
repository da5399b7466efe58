import { Module } from '@nestjs/common';
import { NotificationQueueModule } from '../notification-queue/notification-queue.module';
import { DeliveryJobs } from './delivery-jobs';
import { NotificationFanOut } from './notification-fan-out';
import { NotificationFeedRepository } from './notification-feed.repository';
import { NotificationFeedService } from './notification-feed.service';
import { NotificationReconciler } from './notification-reconciler.service';
import { NotificationsRepository } from './notifications.repository';
import { SlaDeadlineNotifications } from './sla-deadline-notifications.service';

/** Notifications without the plugin runner: the feed task, the reconciler, deadline jobs. */
@Module({
  imports: [NotificationQueueModule],
  providers: [
    NotificationsRepository,
    NotificationFeedRepository,
    NotificationFanOut,
    DeliveryJobs,
    NotificationFeedService,
    NotificationReconciler,
    SlaDeadlineNotifications,
  ],
  exports: [
    NotificationsRepository,
    DeliveryJobs,
    NotificationFeedService,
    NotificationReconciler,
    SlaDeadlineNotifications,
  ],
})
export class NotificationsCoreModule {}
