import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../action-log/finding-action';
import { insertFindingActionsSql } from '../action-log/finding-actions.sql';
import type { TicketOrigin, TicketStatus } from './tickets.entities';

/** A ticket as the routes show it. */
export interface TicketView {
  id: string;
  providerPluginId: string;
  taskId: string;
  taskKey: string;
  url: string;
  status: TicketStatus;
  rawStatus: string;
  origin: TicketOrigin;
  findingCount: number;
  statusSyncedAt: Date | null;
  syncError: string | null;
}

/** What a ticket route needs of a finding: where it is, its title, whether it has a ticket. */
export interface TicketFinding {
  id: string;
  projectId: string;
  productId: string;
  title: string;
  ticketId: string | null;
  witFinding: Record<string, unknown>;
}

export interface NewTicket {
  projectId: string;
  pluginId: string;
  taskId: string;
  taskKey: string;
  url: string;
  status: TicketStatus;
  rawStatus: string;
  origin: TicketOrigin;
  label: string;
  createdBy: string | null;
  /** `status` was just read from the tracker (else it is the initial `open`). */
  statusRead: boolean;
}

const VIEW_SQL = `SELECT t.id, t.installed_plugin_id, t.task_id, t.task_key, t.url, t.status,
        t.raw_status, t.origin, t.status_synced_at, t.sync_error,
        (SELECT count(*)::int FROM finding_tickets ft WHERE ft.ticket_id = t.id) AS finding_count
   FROM tickets t`;

const view = (r: Record<string, unknown>): TicketView => ({
  id: String(r['id']),
  providerPluginId: String(r['installed_plugin_id']),
  taskId: String(r['task_id']),
  taskKey: String(r['task_key']),
  url: String(r['url']),
  status: r['status'] as TicketStatus,
  rawStatus: String(r['raw_status']),
  origin: r['origin'] as TicketOrigin,
  findingCount: Number(r['finding_count']),
  statusSyncedAt: (r['status_synced_at'] as Date | null) ?? null,
  syncError: (r['sync_error'] as string | null) ?? null,
});

const optional = (v: unknown): string | undefined =>
  v === null || v === undefined || v === '' ? undefined : String(v);

/** `tickets` and `finding_tickets`: the tasks the service knows and the findings they carry. */
@Injectable()
export class TicketsRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** The findings among `ids` that exist, in id order, with what a provider is told of them. */
  async findings(ids: string[], manager?: EntityManager): Promise<TicketFinding[]> {
    if (ids.length === 0) return [];
    const rows = (await (manager ?? this.dataSource).query(
      `SELECT f.id, f.project_id, f.product_id, f.title, f.severity, f.rule_id, f.description,
              f.scanner, f.status, f.cve, f.cwe[1] AS cwe, f.host, f.ip, f.port, f.protocol,
              f.url, f.file_path, f.component, f.component_version, ft.ticket_id
         FROM findings f LEFT JOIN finding_tickets ft ON ft.finding_id = f.id
        WHERE f.id = ANY($1::uuid[])
        ORDER BY f.id`,
      [ids],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: String(r['id']),
      projectId: String(r['project_id']),
      productId: String(r['product_id']),
      title: String(r['title'] ?? ''),
      ticketId: (r['ticket_id'] as string | null) ?? null,
      witFinding: {
        id: String(r['id']),
        severity: String(r['severity']),
        rule: String(r['rule_id']),
        description: String(r['description'] ?? ''),
        scanner: String(r['scanner']),
        status: String(r['status']),
        cve: optional(r['cve']),
        cwe: optional(r['cwe']),
        host: optional(r['host']),
        ip: optional(r['ip']),
        port:
          typeof r['port'] === 'number' && r['port'] >= 0 && r['port'] <= 65535
            ? r['port']
            : undefined,
        protocol: optional(r['protocol']),
        url: optional(r['url']),
        filePath: optional(r['file_path']),
        component: optional(r['component']),
        componentVersion: optional(r['component_version']),
      },
    }));
  }

  async ticket(id: string, manager?: EntityManager): Promise<TicketView | null> {
    const rows = (await (manager ?? this.dataSource).query(`${VIEW_SQL} WHERE t.id = $1`, [
      id,
    ])) as Record<string, unknown>[];
    return rows[0] ? view(rows[0]) : null;
  }

  async ticketOfFinding(findingId: string): Promise<TicketView | null> {
    const rows = (await this.dataSource.query(
      `${VIEW_SQL} JOIN finding_tickets l ON l.ticket_id = t.id WHERE l.finding_id = $1`,
      [findingId],
    )) as Record<string, unknown>[];
    return rows[0] ? view(rows[0]) : null;
  }

  /** Serialises the creations of one label (a double click, two replicas: one task). */
  async lockLabel(manager: EntityManager, label: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 27))`, [label]);
  }

  /**
   * The ticket of a task: an existing row of the same task is reused (one row per task; its
   * key and address stay), its status refreshed when `t.statusRead` (a status just read).
   */
  async upsertTicket(manager: EntityManager, t: NewTicket): Promise<string> {
    const rows = (await manager.query(
      `INSERT INTO tickets (id, project_id, installed_plugin_id, task_id, task_key, url, status,
              raw_status, origin, label, created_by, status_synced_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
       ON CONFLICT (installed_plugin_id, task_id) DO UPDATE SET
              status = CASE WHEN $11 THEN EXCLUDED.status ELSE tickets.status END,
              raw_status = CASE WHEN $11 THEN EXCLUDED.raw_status ELSE tickets.raw_status END,
              status_synced_at = CASE WHEN $11 THEN now() ELSE tickets.status_synced_at END
       RETURNING id`,
      [
        t.projectId,
        t.pluginId,
        t.taskId,
        t.taskKey,
        t.url,
        t.status,
        t.rawStatus,
        t.origin,
        t.label,
        t.createdBy,
        t.statusRead,
      ],
    )) as { id: string }[];
    return rows[0]?.id as string;
  }

  /**
   * Links the findings to the ticket and writes a `ticket_linked` action-log entry on each
   * finding it linked. `replace`: a finding's previous ticket link is replaced; else a finding
   * that has one keeps it. Answers the findings linked by this call.
   */
  async link(
    manager: EntityManager,
    ticketId: string,
    findingIds: string[],
    actor: Actor,
    replace: boolean,
  ): Promise<string[]> {
    const onConflict = replace
      ? 'UPDATE SET ticket_id = EXCLUDED.ticket_id, linked_at = now(), linked_by = EXCLUDED.linked_by'
      : 'NOTHING';
    const rows = (await manager.query(
      `WITH linked AS (
         INSERT INTO finding_tickets (finding_id, ticket_id, linked_at, linked_by)
         SELECT id, $2::uuid, now(), $3::uuid FROM unnest($1::uuid[]) AS id
         ON CONFLICT (finding_id) DO ${onConflict}
         RETURNING finding_id),
       logged AS (
         ${insertFindingActionsSql(
           [
             'finding_id',
             'project_id',
             'actor_type',
             'actor_id',
             'actor_label',
             'action',
             'to_value',
           ],
           `SELECT f.id, f.project_id, $4, $3::uuid, $5, 'ticket_linked',
                   jsonb_build_object('ticket_id', t.id, 'task_key', t.task_key, 'url', t.url)
              FROM linked l JOIN findings f ON f.id = l.finding_id
              JOIN tickets t ON t.id = $2::uuid`,
         )}
         RETURNING 1)
       SELECT finding_id FROM linked`,
      [findingIds, ticketId, actor.id, actor.type, actor.label],
    )) as { finding_id: string }[];
    return rows.map((r) => r.finding_id);
  }
}
