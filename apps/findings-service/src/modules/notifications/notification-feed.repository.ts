import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { NotificationCounts, NotificationItem } from './notification-filter';
import type { NotificationKind } from './notification-kinds';
import {
  DRAFTS_SQL,
  FEED_FINDINGS_SQL,
  INSERT_DRAFT_SQL,
  INSERT_SEALED_SQL,
  PROJECTS_WITH_ANY_CHANNEL_SQL,
  PROJECTS_WITH_CHANNELS_SQL,
  SEAL_DRAFTS_SQL,
  UPDATE_DRAFT_SQL,
} from './notification-feed.sql';
import type { SealedNotification } from './notifications.repository';

export interface Draft {
  id: string;
  projectId: string;
  kind: NotificationKind;
  counts: NotificationCounts;
  items: NotificationItem[];
}

export interface FeedFinding extends NotificationItem {
  projectId: string;
}

type Row = Record<string, unknown>;

function location(r: Row): string | null {
  const file = r['file_path'] as string | null;
  if (file)
    return r['start_line'] !== null && r['start_line'] !== undefined
      ? `${file}:${String(r['start_line'])}`
      : file;
  const host = r['host'] as string | null;
  if (host)
    return r['port'] !== null && r['port'] !== undefined ? `${host}:${String(r['port'])}` : host;
  return (r['url'] as string | null) ?? null;
}

/** The feed task's reads and writes of drafts, in the task's transaction. */
@Injectable()
export class NotificationFeedRepository {
  /** Every project with an enabled channel; `undefined` when there are more than `limit`. */
  async projectsWithAnyChannel(
    manager: EntityManager,
    limit: number,
  ): Promise<string[] | undefined> {
    const rows = (await manager.query(PROJECTS_WITH_ANY_CHANNEL_SQL, [limit + 1])) as Row[];
    return rows.length > limit ? undefined : rows.map((r) => String(r['project_id']));
  }

  async projectsWithChannels(manager: EntityManager, projectIds: string[]): Promise<Set<string>> {
    if (projectIds.length === 0) return new Set();
    const rows = (await manager.query(PROJECTS_WITH_CHANNELS_SQL, [projectIds])) as Row[];
    return new Set(rows.map((r) => String(r['project_id'])));
  }

  async findings(manager: EntityManager, ids: string[]): Promise<Map<string, FeedFinding>> {
    if (ids.length === 0) return new Map();
    const rows = (await manager.query(FEED_FINDINGS_SQL, [ids])) as Row[];
    return new Map(
      rows.map((r) => [
        String(r['id']),
        {
          id: String(r['id']),
          projectId: String(r['project_id']),
          title: String(r['title']),
          severity: String(r['severity']),
          status: String(r['status']),
          product_id: String(r['product_id']),
          product: String(r['product']),
          location: location(r),
          due_at: r['sla_due_at'] ? (r['sla_due_at'] as Date).toISOString() : null,
        },
      ]),
    );
  }

  async drafts(manager: EntityManager, projectIds: string[]): Promise<Draft[]> {
    if (projectIds.length === 0) return [];
    const rows = (await manager.query(DRAFTS_SQL, [projectIds])) as Row[];
    return rows.map((r) => ({
      id: String(r['id']),
      projectId: String(r['project_id']),
      kind: r['kind'] as NotificationKind,
      counts: r['counts'] as NotificationCounts,
      items: r['items'] as NotificationItem[],
    }));
  }

  async insertDraft(
    manager: EntityManager,
    draft: Omit<Draft, 'id'>,
    added: number,
  ): Promise<void> {
    await manager.query(INSERT_DRAFT_SQL, [
      randomUUID(),
      draft.projectId,
      draft.kind,
      JSON.stringify(draft.counts),
      JSON.stringify(draft.items),
      added,
    ]);
  }

  async updateDraft(manager: EntityManager, draft: Draft, added: number): Promise<void> {
    await manager.query(UPDATE_DRAFT_SQL, [
      draft.id,
      JSON.stringify(draft.counts),
      JSON.stringify(draft.items),
      added,
    ]);
  }

  async seal(
    manager: EntityManager,
    quietSeconds: number,
    maxWindowSeconds: number,
    maxFindings: number,
  ): Promise<SealedNotification[]> {
    const [rows] = (await manager.query(SEAL_DRAFTS_SQL, [
      quietSeconds,
      maxWindowSeconds,
      maxFindings,
    ])) as [Row[], number];
    return rows.map((r) => ({
      id: String(r['id']),
      projectId: String(r['project_id']),
      kind: r['kind'] as NotificationKind,
      counts: r['counts'] as NotificationCounts,
      items: r['items'] as NotificationItem[],
    }));
  }

  /** A sealed notification (deadline jobs); null when its source key exists or the project is gone. */
  async insertSealed(
    manager: EntityManager,
    notification: Omit<Draft, 'id'> & { sourceKey: string; findingCount: number },
  ): Promise<string | null> {
    const rows = (await manager.query(INSERT_SEALED_SQL, [
      randomUUID(),
      notification.projectId,
      notification.kind,
      notification.sourceKey,
      JSON.stringify(notification.counts),
      JSON.stringify(notification.items),
      notification.findingCount,
    ])) as Row[];
    return rows[0] ? String(rows[0]['id']) : null;
  }
}
