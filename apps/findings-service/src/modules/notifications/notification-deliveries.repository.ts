import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { DeliveryState, NotificationKind } from './notification-kinds';

/** A delivery as the §1.8 routes show it. */
export interface DeliveryView {
  id: string;
  notificationId: string;
  kind: NotificationKind;
  pluginId: string;
  catalogPluginId: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: Date;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
  createdAt: Date;
  updatedAt: Date;
  deliveredAt: Date | null;
}

/** One channel's deliveries of a project, summed up for the channel list. */
export interface DeliverySummary {
  pending: number;
  delivered24h: number;
  failed24h: number;
  lastFailureAt: Date | null;
  lastFailureMessage: string | null;
}

export interface DeliveryFilter {
  projectId: string;
  state?: DeliveryState;
  pluginId?: string;
  /** Keyset: strictly older than this (created_at, id). */
  before?: { createdAt: string; id: string };
  limit: number;
}

const VIEW = `d.id::text AS id, d.notification_id::text AS notification_id, n.kind,
  d.installed_plugin_id::text AS plugin_id, p.catalog_plugin_id, d.state, d.attempts,
  d.next_attempt_at, d.last_error_code, d.last_error_message, d.created_at, d.updated_at,
  d.delivered_at, to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key`;
const FROM = `notification_deliveries d JOIN notifications n ON n.id = d.notification_id
  JOIN installed_plugins p ON p.id = d.installed_plugin_id`;

type Row = Record<string, unknown>;

export type DeliveryRow = DeliveryView & { createdKey: string };

function toView(r: Row): DeliveryRow {
  return {
    id: String(r['id']),
    notificationId: String(r['notification_id']),
    kind: r['kind'] as NotificationKind,
    pluginId: String(r['plugin_id']),
    catalogPluginId: String(r['catalog_plugin_id']),
    state: r['state'] as DeliveryState,
    attempts: Number(r['attempts']),
    nextAttemptAt: r['next_attempt_at'] as Date,
    lastErrorCode: (r['last_error_code'] as string | null) ?? null,
    lastErrorMessage: (r['last_error_message'] as string | null) ?? null,
    createdAt: r['created_at'] as Date,
    updatedAt: r['updated_at'] as Date,
    deliveredAt: (r['delivered_at'] as Date | null) ?? null,
    createdKey: String(r['created_key']),
  };
}

/** The deliveries of a project for the §1.8 routes and the channel list's summary. */
@Injectable()
export class NotificationDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Newest first, keyset on (created_at, id). */
  async list(filter: DeliveryFilter): Promise<DeliveryRow[]> {
    const params: unknown[] = [filter.projectId, filter.limit];
    const where = ['d.project_id = $1'];
    if (filter.state) {
      params.push(filter.state);
      where.push(`d.state = $${params.length}`);
    }
    if (filter.pluginId) {
      params.push(filter.pluginId);
      where.push(`d.installed_plugin_id = $${params.length}`);
    }
    if (filter.before) {
      params.push(filter.before.createdAt, filter.before.id);
      where.push(
        `(d.created_at, d.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`,
      );
    }
    const rows = (await this.dataSource.query(
      `SELECT ${VIEW} FROM ${FROM} WHERE ${where.join(' AND ')}
        ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
      params,
    )) as Row[];
    return rows.map(toView);
  }

  async get(projectId: string, id: string): Promise<DeliveryRow | null> {
    const rows = (await this.dataSource.query(
      `SELECT ${VIEW} FROM ${FROM} WHERE d.project_id = $1 AND d.id = $2`,
      [projectId, id],
    )) as Row[];
    return rows[0] ? toView(rows[0]) : null;
  }

  /** failed → pending, attempts 0, due now; false when the delivery is not failed. */
  async retry(projectId: string, id: string): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE notification_deliveries SET state = 'pending', attempts = 0,
              next_attempt_at = now(), updated_at = now(), lease_owner = NULL, lease_until = NULL
        WHERE project_id = $1 AND id = $2 AND state = 'failed' RETURNING id`,
      [projectId, id],
    )) as [Row[], number];
    return rows.length > 0;
  }

  /** Per installation of the project's deliveries: pending, the last 24 h, the last failure. */
  async summaries(projectId: string): Promise<Map<string, DeliverySummary>> {
    const rows = (await this.dataSource.query(
      `SELECT installed_plugin_id::text AS plugin_id,
              count(*) FILTER (WHERE state IN ('pending', 'delivering'))::int AS pending,
              count(*) FILTER (WHERE state = 'delivered'
                AND delivered_at > now() - interval '24 hours')::int AS delivered_24h,
              count(*) FILTER (WHERE state = 'failed'
                AND updated_at > now() - interval '24 hours')::int AS failed_24h,
              max(updated_at) FILTER (WHERE state = 'failed') AS last_failure_at,
              (array_agg(last_error_message ORDER BY updated_at DESC)
                FILTER (WHERE state = 'failed'))[1] AS last_failure_message
         FROM notification_deliveries WHERE project_id = $1 GROUP BY installed_plugin_id`,
      [projectId],
    )) as Row[];
    return new Map(
      rows.map((r) => [
        String(r['plugin_id']),
        {
          pending: Number(r['pending']),
          delivered24h: Number(r['delivered_24h']),
          failed24h: Number(r['failed_24h']),
          lastFailureAt: (r['last_failure_at'] as Date | null) ?? null,
          lastFailureMessage: (r['last_failure_message'] as string | null) ?? null,
        },
      ]),
    );
  }

  async projectExists(projectId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM projects WHERE id = $1`, [
      projectId,
    ])) as unknown[];
    return rows.length > 0;
  }
}
