import type { PeriodicTask } from '@platform/database';
import type { NotificationFeedService } from './notification-feed.service';
import type { NotificationReconciler } from './notification-reconciler.service';

/** `notification-feed` and `notification-reconcile`: on the leading worker only. */
export function notificationTasks(
  feed: NotificationFeedService,
  reconciler: NotificationReconciler,
  periods: { feedEveryMs: number; reconcileEveryMs: number },
): PeriodicTask[] {
  return [
    {
      name: 'notification-feed',
      everyMs: periods.feedEveryMs,
      run: async () => {
        await feed.tick();
      },
    },
    {
      name: 'notification-reconcile',
      everyMs: periods.reconcileEveryMs,
      run: async () => {
        await reconciler.run();
      },
    },
  ];
}
