import { Module } from '@nestjs/common';
import { NotificationQueue } from './notification-queue.provider';

/** The producer side of the notification queue (the hourly deadline check adds to it). */
@Module({ providers: [NotificationQueue], exports: [NotificationQueue] })
export class NotificationQueueModule {}
