import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { FindingStatus } from '../../findings/finding-status';
import type { TicketStatus } from '../tickets.entities';

/** What a sync job needs of its ticket: the task, the stored state and its findings' states. */
export interface TicketToSync {
  id: string;
  projectId: string;
  pluginId: string;
  taskId: string;
  taskKey: string;
  status: TicketStatus;
  /** The pending request (exact text of `sync_requested_at`); null when there is none. */
  requested: string | null;
  findings: FindingStatus[];
}

/**
 * The service-to-tracker side of `tickets` (docs/findings-service/tickets.md, "Service to
 * tracker"): requests made by the feed consumer in its transaction, the leader's scan of
 * pending requests, and the job's compare-and-clear (a request made while a job ran survives).
 */
@Injectable()
export class TicketSyncRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Marks the tickets of these findings for a sync, in the feed reader's transaction; only
   * tickets of the project's current provider in projects with `sync_status_to_tracker`.
   */
  async request(manager: EntityManager, findingIds: string[]): Promise<number> {
    if (findingIds.length === 0) return 0;
    const [, count] = (await manager.query(
      `UPDATE tickets t SET sync_requested_at = clock_timestamp()
         FROM project_ticket_settings s
        WHERE t.id IN (SELECT ft.ticket_id FROM finding_tickets ft
                        WHERE ft.finding_id = ANY($1::uuid[]))
          AND s.project_id = t.project_id
          AND s.installed_plugin_id = t.installed_plugin_id
          AND s.sync_status_to_tracker`,
      [findingIds],
    )) as [unknown, number];
    return count;
  }

  /** Tickets with a pending request, the oldest first. */
  async pending(limit: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT id FROM tickets WHERE sync_requested_at IS NOT NULL
        ORDER BY sync_requested_at LIMIT $1`,
      [limit],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }

  async load(ticketId: string): Promise<TicketToSync | null> {
    const rows = (await this.dataSource.query(
      `SELECT t.id, t.project_id, t.installed_plugin_id, t.task_id, t.task_key, t.status,
              t.sync_requested_at::text AS requested,
              COALESCE(array_agg(f.status ORDER BY f.id) FILTER (WHERE f.id IS NOT NULL),
                       '{}') AS findings
         FROM tickets t
         LEFT JOIN finding_tickets ft ON ft.ticket_id = t.id
         LEFT JOIN findings f ON f.id = ft.finding_id
        WHERE t.id = $1
        GROUP BY t.id`,
      [ticketId],
    )) as Record<string, unknown>[];
    const r = rows[0];
    if (!r) return null;
    return {
      id: String(r['id']),
      projectId: String(r['project_id']),
      pluginId: String(r['installed_plugin_id']),
      taskId: String(r['task_id']),
      taskKey: String(r['task_key']),
      status: r['status'] as TicketStatus,
      requested: (r['requested'] as string | null) ?? null,
      findings: r['findings'] as FindingStatus[],
    };
  }

  /** Clears the request it served (not a newer one); `clearError` after a transition worked. */
  async done(ticketId: string, requested: string, clearError: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE tickets
          SET sync_requested_at = CASE WHEN sync_requested_at::text = $2 THEN NULL
                                       ELSE sync_requested_at END,
              sync_error = CASE WHEN $3 THEN NULL ELSE sync_error END
        WHERE id = $1`,
      [ticketId, requested, clearError],
    );
  }

  /** A transition that failed for good: the reason is kept and the request it served cleared. */
  async fail(ticketId: string, requested: string, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE tickets
          SET sync_requested_at = CASE WHEN sync_requested_at::text = $2 THEN NULL
                                       ELSE sync_requested_at END,
              sync_error = $3
        WHERE id = $1`,
      [ticketId, requested, reason.slice(0, 500)],
    );
  }
}
