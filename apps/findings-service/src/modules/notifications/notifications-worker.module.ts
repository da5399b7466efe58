import { Module } from '@nestjs/common';
import { PluginsModule } from '../plugins/plugins.module';
import { NotificationDeliveryService } from './notification-delivery.service';
import { NotificationProcessor } from './notification.processor';
import { NotificationsCoreModule } from './notifications-core.module';

/** Worker side: the `notifications` queue's consumer (every replica). */
@Module({
  imports: [NotificationsCoreModule, PluginsModule],
  providers: [NotificationDeliveryService, NotificationProcessor],
})
export class NotificationsWorkerModule {}
