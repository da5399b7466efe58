import type { EntityManager } from 'typeorm';
import type { FindingsConfig } from '../../app/config/findings-config';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
import type { DeliveryJobs } from './delivery-jobs';
import type { NotificationFanOut } from './notification-fan-out';
import type { NotificationFeedRepository } from './notification-feed.repository';
import { NotificationFeedService } from './notification-feed.service';

/**
 * What the notifications' consumer of the action-log feed asks PostgreSQL for: the statements
 * of one tick, recorded by a stand-in for its transaction (the feed's SQL itself runs on real
 * PostgreSQL in test/notifications/action-feed.e2e-spec.ts).
 */
/** One `created` entry of project p1, as a page gives it. */
const ENTRY = {
  id: '1',
  tx: '150',
  finding_id: 'f1',
  project_id: 'p1',
  action: 'created',
  from_value: null,
  to_value: null,
  at: new Date(0),
};

async function oneTick(projectsWithChannels: string[] | undefined) {
  const statements: string[] = [];
  const manager = {
    queryRunner: { isTransactionActive: true },
    query: jest.fn(async (text: string) => {
      statements.push(text.replace(/\s+/g, ' '));
      if (text.includes('pg_snapshot_xmin')) return [{ upper: '200' }];
      if (text.includes('FROM finding_actions')) return [ENTRY];
      return text.includes('FROM action_feed_cursors') ? [{ boundary: '100' }] : [];
    }),
  } as unknown as EntityManager;
  const feed = {
    projectsWithAnyChannel: jest.fn(async () => projectsWithChannels),
    projectsWithChannels: jest.fn(async () => new Set<string>(['p1'])),
    findings: jest.fn(async () => new Map()),
    seal: jest.fn(async () => []),
  };
  const service = new NotificationFeedService(
    { notifications: { quietSeconds: 60, maxWindowSeconds: 600 } } as FindingsConfig,
    { transaction: jest.fn(async (work: (m: EntityManager) => unknown) => work(manager)) } as never,
    feed as unknown as NotificationFeedRepository,
    { deliveries: jest.fn(async () => []) } as unknown as NotificationFanOut,
    { add: jest.fn(async () => undefined) } as unknown as DeliveryJobs,
    new FindingsMetrics(),
  );
  await service.tick();
  return { statements, feed };
}

const pageOf = (statements: string[]) => statements.find((s) => s.includes('FROM finding_actions'));

describe('NotificationFeedService - what it reads of the action-log feed', () => {
  it('reads nothing while no project has a channel, and moves its cursor on', async () => {
    const { statements } = await oneTick([]);
    expect(pageOf(statements)).toBeUndefined();
    expect(statements.some((s) => s.startsWith('UPDATE action_feed_cursors'))).toBe(true);
  });

  it('reads the entries of the projects with a channel only, and asks for those projects once', async () => {
    const { statements, feed } = await oneTick(['p1', 'p2']);
    expect(pageOf(statements)).toContain('a.project_id = ANY($4::uuid[])');
    expect(feed.projectsWithChannels).not.toHaveBeenCalled();
    expect(feed.findings).toHaveBeenCalledWith(expect.anything(), ['f1']);
  });

  it('past FEED_PROJECTS_MAX projects with a channel it reads every entry, as before', async () => {
    const { statements, feed } = await oneTick(undefined);
    const page = pageOf(statements);
    expect(page).toContain(`a.action IN ('created', 'status_changed')`);
    expect(page).not.toContain('project_id = ANY');
    expect(feed.projectsWithChannels).toHaveBeenCalledWith(expect.anything(), ['p1']);
    expect(feed.findings).toHaveBeenCalledWith(expect.anything(), ['f1']);
  });
});
