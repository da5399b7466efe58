import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { channelThreshold, channelView } from './notification-filter';
import {
  NotificationsRepository,
  type DeliveryJobRef,
  type NewDelivery,
  type SealedNotification,
} from './notifications.repository';

/**
 * The fan-out of sealed notifications (§1.2): one delivery per enabled channel whose frozen
 * filter leaves something, in the caller's transaction.
 */
@Injectable()
export class NotificationFanOut {
  constructor(private readonly repository: NotificationsRepository) {}

  async deliveries(
    manager: EntityManager,
    sealed: SealedNotification[],
  ): Promise<DeliveryJobRef[]> {
    if (sealed.length === 0) return [];
    const projects = [...new Set(sealed.map((n) => n.projectId))];
    const channels = await this.repository.enabledChannels(manager, projects);
    const deliveries: NewDelivery[] = [];
    for (const n of sealed) {
      for (const channel of channels.filter((c) => c.projectId === n.projectId)) {
        const threshold = channelThreshold(channel.settings);
        if (channelView(n.kind, n, threshold) === null) continue;
        deliveries.push({
          notificationId: n.id,
          projectId: n.projectId,
          installedPluginId: channel.installedPluginId,
          threshold,
        });
      }
    }
    return this.repository.insertDeliveries(manager, deliveries);
  }
}
