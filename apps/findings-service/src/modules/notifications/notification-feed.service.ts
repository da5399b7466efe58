import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { FindingsMetrics } from '../../app/metrics/findings-metrics';
import { FeedLagMeter, readFeed, type FeedEntry } from '../action-log';
import { DeliveryJobs } from './delivery-jobs';
import { NotificationFanOut } from './notification-fan-out';
import { NotificationFeedRepository, type FeedFinding } from './notification-feed.repository';
import { mergeIntoDraft, type NotificationItem } from './notification-filter';
import { NOTIFICATION_MAX_FINDINGS, type NotificationKind } from './notification-kinds';
import { NotificationsRepository } from './notifications.repository';

/** Pages one tick reads at most (the next tick goes on). */
const PAGES_PER_TICK = 20;

/**
 * Up to this many projects with a channel, the feed reads only their entries (none at all when
 * no project has one); with more, every entry, and collect drops the others as before.
 */
export const FEED_PROJECTS_MAX = 1_000;

export interface FeedTickSummary {
  entries: number;
  sealed: number;
  deliveries: number;
}

/** The kinds a feed entry feeds (§1.2). */
export function kindsOf(entry: FeedEntry): NotificationKind[] {
  if (entry.action === 'created') return ['new_findings'];
  const status = entry.to?.['status'];
  if (status === 'fixed') return ['closed_findings', 'fixed_summary'];
  if (status === 'false_positive') return ['closed_findings'];
  return [];
}

/**
 * The leader's `notification-feed` task (docs/findings-service/notifications.md): reads the
 * action-log feed, adds each finding to its project's collecting draft of the kind (cursor and
 * drafts in one transaction), seals quiet, old or full drafts and fans them out to the enabled
 * channels (one transaction), then adds the `deliver` jobs.
 */
@Injectable()
export class NotificationFeedService {
  private readonly logger = new Logger('NotificationFeed');
  private readonly lag: FeedLagMeter;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly repository: NotificationsRepository,
    private readonly feed: NotificationFeedRepository,
    private readonly fanOut: NotificationFanOut,
    private readonly jobs: DeliveryJobs,
    metrics: FindingsMetrics,
  ) {
    this.lag = new FeedLagMeter('notifications', metrics.registry, this.logger);
  }

  async tick(): Promise<FeedTickSummary> {
    let entries = 0;
    for (let page = 0; page < PAGES_PER_TICK; page++) {
      const read = await this.repository.transaction(async (manager) => {
        // Only the entries of projects with a channel: the others would be dropped (collect).
        const projectIds = await this.feed.projectsWithAnyChannel(manager, FEED_PROJECTS_MAX);
        const feedPage = await readFeed(manager, 'notifications', { projectIds });
        await this.collect(manager, feedPage.entries, projectIds && new Set(projectIds));
        return feedPage;
      });
      entries += read.entries.length;
      this.lag.observe(read.upper);
      if (!read.more) break;
    }
    const { quietSeconds, maxWindowSeconds } = this.config.notifications;
    const { sealed, refs } = await this.repository.transaction(async (manager) => {
      const done = await this.feed.seal(
        manager,
        quietSeconds,
        maxWindowSeconds,
        NOTIFICATION_MAX_FINDINGS,
      );
      return { sealed: done.length, refs: await this.fanOut.deliveries(manager, done) };
    });
    await this.jobs.add(refs);
    return { entries, sealed, deliveries: refs.length };
  }

  /**
   * Adds the entries' findings to the drafts of their projects (projects with a channel:
   * `withChannels` when the page was read for those, else read for the entries' projects).
   */
  private async collect(
    manager: EntityManager,
    entries: FeedEntry[],
    withChannels: Set<string> | undefined,
  ): Promise<void> {
    const wanted = entries.filter((e) => kindsOf(e).length > 0);
    if (wanted.length === 0) return;
    const named = [...new Set(wanted.map((e) => e.projectId))];
    const projects = withChannels
      ? new Set(named.filter((id) => withChannels.has(id)))
      : await this.feed.projectsWithChannels(manager, named);
    const relevant = wanted.filter((e) => projects.has(e.projectId));
    if (relevant.length === 0) return;
    const findings = await this.feed.findings(manager, [
      ...new Set(relevant.map((e) => e.findingId)),
    ]);
    const groups = new Map<
      string,
      { projectId: string; kind: NotificationKind; items: Map<string, NotificationItem> }
    >();
    for (const entry of relevant) {
      const finding = findings.get(entry.findingId);
      if (!finding) continue; // deleted since
      for (const kind of kindsOf(entry)) {
        const key = `${entry.projectId}/${kind}`;
        let group = groups.get(key);
        if (!group) {
          group = { projectId: entry.projectId, kind, items: new Map() };
          groups.set(key, group);
        }
        group.items.set(finding.id, itemOf(finding, entry));
      }
    }
    if (groups.size === 0) return;
    const drafts = await this.feed.drafts(manager, [...projects]);
    for (const group of groups.values()) {
      const added = [...group.items.values()];
      const draft = drafts.find((d) => d.projectId === group.projectId && d.kind === group.kind);
      if (draft) {
        await this.feed.updateDraft(
          manager,
          { ...draft, ...mergeIntoDraft(group.kind, draft, added) },
          added.length,
        );
      } else {
        const merged = mergeIntoDraft(group.kind, { counts: {}, items: [] }, added);
        await this.feed.insertDraft(
          manager,
          { projectId: group.projectId, kind: group.kind, ...merged },
          added.length,
        );
      }
    }
  }
}

/** The item of a finding as the entry saw it (a status change: the status it moved into). */
function itemOf(finding: FeedFinding, entry: FeedEntry): NotificationItem {
  const { projectId: _projectId, ...item } = finding;
  const status = entry.action === 'status_changed' ? entry.to?.['status'] : undefined;
  return typeof status === 'string' ? { ...item, status } : item;
}
