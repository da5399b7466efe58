import type { EntityManager } from 'typeorm';
import type { FindingsConfig } from '../../app/config/findings-config';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
import type { DeliveryJobs } from '../notifications/delivery-jobs';
import type { NotificationFanOut } from '../notifications/notification-fan-out';
import type { NotificationFeedRepository } from '../notifications/notification-feed.repository';
import { NotificationFeedService } from '../notifications/notification-feed.service';
import type { NotificationsRepository } from '../notifications/notifications.repository';
import type { TicketSyncQueue } from '../tickets/sync/ticket-sync-queue.provider';
import { TicketSyncFeed } from '../tickets/sync/ticket-sync.feed';
import type { TicketSyncRepository } from '../tickets/sync/ticket-sync.repository';

/**
 * What each consumer of the action-log feed asks PostgreSQL for (action-feed.ts): the rows it
 * would drop stay there. A manager that records the statements stands in for the transaction;
 * the feed's own SQL runs on real PostgreSQL in test/notifications/action-feed.e2e-spec.ts.
 */
function recordingManager(): { manager: EntityManager; statements: string[] } {
  const statements: string[] = [];
  const manager = {
    queryRunner: { isTransactionActive: true },
    query: jest.fn(async (sql: string) => {
      statements.push(sql.replace(/\s+/g, ' '));
      if (sql.includes('FROM action_feed_cursors')) return [{ boundary: '100' }];
      if (sql.includes('pg_snapshot_xmin')) return [{ upper: '200' }];
      return [];
    }),
  };
  return { manager: manager as unknown as EntityManager, statements };
}

const pageOf = (statements: string[]) => statements.find((s) => s.includes('FROM finding_actions'));

describe('Action-log feed consumers', () => {
  it('the tickets consumer reads status changes only, never the created entries', async () => {
    const { manager, statements } = recordingManager();
    const repository = {
      transaction: jest.fn(async (work: (m: EntityManager) => Promise<unknown>) => work(manager)),
      request: jest.fn(async () => 0),
      pending: jest.fn(async () => []),
    };
    const feed = new TicketSyncFeed(
      repository as unknown as TicketSyncRepository,
      {} as TicketSyncQueue,
      new FindingsMetrics(),
    );
    await feed.tick();
    expect(pageOf(statements)).toContain(`a.action IN ('status_changed')`);
  });

  function notificationFeed(projectsWithChannels: string[] | undefined) {
    const { manager, statements } = recordingManager();
    const repository = {
      transaction: jest.fn(async (work: (m: EntityManager) => Promise<unknown>) => work(manager)),
    };
    const feed = {
      projectsWithAnyChannel: jest.fn(async () => projectsWithChannels),
      projectsWithChannels: jest.fn(async () => new Set<string>()),
      seal: jest.fn(async () => []),
    };
    const service = new NotificationFeedService(
      { notifications: { quietSeconds: 60, maxWindowSeconds: 600 } } as FindingsConfig,
      repository as unknown as NotificationsRepository,
      feed as unknown as NotificationFeedRepository,
      { deliveries: jest.fn(async () => []) } as unknown as NotificationFanOut,
      { add: jest.fn(async () => undefined) } as unknown as DeliveryJobs,
      new FindingsMetrics(),
    );
    return { service, statements };
  }

  it('the notifications consumer reads nothing while no project has a channel, and moves on', async () => {
    const { service, statements } = notificationFeed([]);
    await service.tick();
    expect(pageOf(statements)).toBeUndefined();
    expect(statements.some((s) => s.startsWith('UPDATE action_feed_cursors'))).toBe(true);
  });

  it('the notifications consumer reads the entries of the projects with a channel only', async () => {
    const { service, statements } = notificationFeed(['p1', 'p2']);
    await service.tick();
    expect(pageOf(statements)).toContain('a.project_id = ANY($4::uuid[])');
  });

  it('past FEED_PROJECTS_MAX projects with a channel it reads every entry, as before', async () => {
    const { service, statements } = notificationFeed(undefined);
    await service.tick();
    expect(pageOf(statements)).toContain(`a.action IN ('created', 'status_changed')`);
    expect(pageOf(statements)).not.toContain('project_id = ANY');
  });
});
