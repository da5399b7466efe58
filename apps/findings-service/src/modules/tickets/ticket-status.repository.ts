import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../action-log/finding-action';
import { insertFindingActionsSql } from '../action-log/finding-actions.sql';
import { FINDING_STATUS_GROUPS } from '../findings/finding-status';
import { planBulkTransition } from '../findings/lifecycle/finding-lifecycle';
import { statusChangeCounts, statusChangeSql } from '../findings/lifecycle/status-change.sql';
import { SqlParams } from '../findings/list/finding-selection.sql';
import type { TicketStatus } from './tickets.entities';

export interface KnownTask {
  ticketId: string;
  taskKey: string;
  status: TicketStatus;
  rawStatus: string;
}

/**
 * A tracker's word on a task's state: the ticket's stored status, the action-log entries of
 * its findings and, when the project says so, the findings it closes (the findings module's
 * status-change statement, in this transaction).
 */
@Injectable()
export class TicketStatusRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async task(pluginId: string, projectId: string, taskId: string): Promise<KnownTask | null> {
    const rows = (await this.dataSource.query(
      `SELECT id, task_key, status, raw_status FROM tickets
        WHERE installed_plugin_id = $1 AND project_id = $2 AND task_id = $3`,
      [pluginId, projectId, taskId],
    )) as { id: string; task_key: string; status: TicketStatus; raw_status: string }[];
    const row = rows[0];
    return row
      ? { ticketId: row.id, taskKey: row.task_key, status: row.status, rawStatus: row.raw_status }
      : null;
  }

  /**
   * The poll's next tickets (docs/findings-service/tickets.md, "Polling"): tickets of the
   * project's current provider in projects that have no webhook secret, the longest unchecked
   * first (never checked before all).
   */
  async pollDue(limit: number): Promise<(KnownTask & { projectId: string; taskId: string })[]> {
    const rows = (await this.dataSource.query(
      `SELECT t.id, t.project_id, t.task_id, t.task_key, t.status, t.raw_status
         FROM tickets t
         JOIN project_ticket_settings s
           ON s.project_id = t.project_id AND s.installed_plugin_id = t.installed_plugin_id
        WHERE s.webhook_secret_hash IS NULL
        ORDER BY t.status_synced_at ASC NULLS FIRST, t.id
        LIMIT $1`,
      [limit],
    )) as {
      id: string;
      project_id: string;
      task_id: string;
      task_key: string;
      status: TicketStatus;
      raw_status: string;
    }[];
    return rows.map((row) => ({
      ticketId: row.id,
      projectId: row.project_id,
      taskId: row.task_id,
      taskKey: row.task_key,
      status: row.status,
      rawStatus: row.raw_status,
    }));
  }

  /** A ticket the poll asked about without an answer it could use: its turn comes again later. */
  async touch(ticketId: string): Promise<void> {
    await this.dataSource.query(`UPDATE tickets SET status_synced_at = now() WHERE id = $1`, [
      ticketId,
    ]);
  }

  /**
   * Stores the new status unless it is the stored one (also how an echo of our own transition
   * ends); `false` when nothing changed. Writes `ticket_status_changed` on each of its findings.
   */
  async setStatus(
    manager: EntityManager,
    ticketId: string,
    status: TicketStatus,
    rawStatus: string,
    actor: Actor,
  ): Promise<{ changed: boolean; from: TicketStatus | null }> {
    const rows = (await manager.query(
      `WITH before AS (SELECT status FROM tickets WHERE id = $1 FOR UPDATE)
       UPDATE tickets t SET status = $2, raw_status = $3, status_synced_at = now()
         FROM before WHERE t.id = $1 AND before.status <> $2
       RETURNING before.status AS from_status`,
      [ticketId, status, rawStatus],
    )) as [{ from_status: TicketStatus }[], number];
    const from = rows[0]?.[0]?.from_status ?? null;
    if (from === null) {
      await manager.query(
        `UPDATE tickets SET raw_status = $2, status_synced_at = now() WHERE id = $1`,
        [ticketId, rawStatus],
      );
      return { changed: false, from: null };
    }
    await manager.query(
      insertFindingActionsSql(
        [
          'finding_id',
          'project_id',
          'actor_type',
          'actor_id',
          'actor_label',
          'action',
          'from_value',
          'to_value',
        ],
        `SELECT f.id, f.project_id, $2, NULL, $3, 'ticket_status_changed',
                jsonb_build_object('ticket_status', $4::text),
                jsonb_build_object('ticket_status', $5::text, 'raw_status', $6::text, 'ticket_id', $1::text)
           FROM finding_tickets ft JOIN findings f ON f.id = ft.finding_id
          WHERE ft.ticket_id = $1::uuid`,
      ),
      [ticketId, actor.type, actor.label, from, status, rawStatus],
    );
    return { changed: true, from };
  }

  /** Moves the ticket's findings still in an attention state to `fixed`; answers how many. */
  async fixFindings(
    manager: EntityManager,
    ticketId: string,
    actor: Actor,
    justification: string,
    now: Date,
  ): Promise<number> {
    const params = new SqlParams();
    const { sql, values } = statusChangeSql({
      where: [
        `f.id IN (SELECT ft.finding_id FROM finding_tickets ft
                   WHERE ft.ticket_id = ${params.add(ticketId)}::uuid)`,
        `f.status = ANY(${params.add([...FINDING_STATUS_GROUPS.attention])}::text[])`,
      ],
      params,
      plan: planBulkTransition('fixed', {}, now),
      actor,
      now,
      justification,
    });
    return statusChangeCounts(await manager.query(sql, values)).changed;
  }
}
