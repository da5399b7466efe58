import type { EntityManager } from 'typeorm';
import { FindingsMetrics } from '../../../app/metrics/findings-metrics';
import type { TicketSyncQueue } from './ticket-sync-queue.provider';
import { TicketSyncFeed } from './ticket-sync.feed';
import type { TicketSyncRepository } from './ticket-sync.repository';

/**
 * What the tickets' consumer of the action-log feed asks PostgreSQL for: a manager that records
 * the statements stands in for the transaction (the feed's SQL itself runs on real PostgreSQL in
 * test/notifications/action-feed.e2e-spec.ts).
 */
describe('TicketSyncFeed - what it reads of the action-log feed', () => {
  it('reads status changes only, never the created entries (one per new finding)', async () => {
    const sent: string[] = [];
    const manager = {
      queryRunner: { isTransactionActive: true },
      query: jest.fn(async (sql: string) => {
        sent.push(sql);
        if (sql.includes('FROM action_feed_cursors')) return [{ boundary: '10' }];
        return sql.includes('pg_snapshot_xmin') ? [{ upper: '20' }] : [];
      }),
    } as unknown as EntityManager;
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
    const page = sent.find((sql) => sql.includes('FROM finding_actions'));
    expect(page).toContain(`a.action IN ('status_changed')`);
  });
});
