import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { ChannelThreshold, NotificationCounts, NotificationItem } from './notification-filter';
import type { DeliveryState, NotificationKind } from './notification-kinds';
import {
  CLAIM_SQL,
  ENABLED_CHANNELS_SQL,
  FINISH_CANCELLED_SQL,
  FINISH_DELIVERED_SQL,
  FINISH_FAILED_SQL,
  FINISH_RETRY_SQL,
  INSERT_DELIVERIES_SQL,
  STRANDED_SQL,
} from './notification-deliveries.sql';

export interface SealedNotification {
  id: string;
  projectId: string;
  kind: NotificationKind;
  counts: NotificationCounts;
  items: NotificationItem[];
}

export interface EnabledChannel {
  projectId: string;
  installedPluginId: string;
  settings: Record<string, unknown>;
}

export interface NewDelivery {
  notificationId: string;
  projectId: string;
  installedPluginId: string;
  threshold: ChannelThreshold;
}

export interface ClaimedDelivery {
  id: string;
  notificationId: string;
  projectId: string;
  installedPluginId: string;
  idempotencyKey: string;
  threshold: ChannelThreshold;
  state: DeliveryState;
  attempts: number;
  /** Read by the claim's statement; null when the notification is gone. */
  context: DeliveryContext | null;
  /** The installation as the claim read it; null when it was removed. */
  installation: ClaimedInstallation | null;
}

/** The installation's row as the claim reads it (the plugins module parses and opens it). */
export interface ClaimedInstallation {
  catalogPluginId: string;
  enabled: boolean;
  capabilities: string[];
  artifactSha256: string;
  manifest: Buffer;
  settings: Record<string, unknown>;
  secretSettings: string | null;
}

export interface DeliveryContext {
  kind: NotificationKind;
  counts: NotificationCounts;
  items: NotificationItem[];
  sealedAt: Date;
  project: { id: string; name: string };
  /** The project's channel settings; null when the config was removed. */
  channelSettings: Record<string, unknown> | null;
  /** The project's sealed secret settings of the channel. */
  channelSecretSettings: string | null;
}

export interface StrandedDelivery {
  id: string;
  attempts: number;
  state: DeliveryState;
  /** When the expired lease ended (ms since the epoch); null for a pending row. */
  leaseUntilMs: string | null;
}

/** A job to add after the transaction that made the delivery commits. */
export interface DeliveryJobRef {
  id: string;
  attempts: number;
  /** Appended to the job id (a put-back or a re-claim after an expired lease). */
  suffix?: string;
}

type Row = Record<string, unknown>;

/** `notifications` and `notification_deliveries` (owner: this module). */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async enabledChannels(manager: EntityManager, projectIds: string[]): Promise<EnabledChannel[]> {
    if (projectIds.length === 0) return [];
    const rows = (await manager.query(ENABLED_CHANNELS_SQL, [projectIds])) as Row[];
    return rows.map((r) => ({
      projectId: String(r['project_id']),
      installedPluginId: String(r['installed_plugin_id']),
      settings: (r['settings'] as Record<string, unknown> | null) ?? {},
    }));
  }

  /** Inserts the deliveries (a repeated fan-out adds nothing: one per notification × channel). */
  async insertDeliveries(
    manager: EntityManager,
    deliveries: NewDelivery[],
  ): Promise<DeliveryJobRef[]> {
    if (deliveries.length === 0) return [];
    const rows = (await manager.query(INSERT_DELIVERIES_SQL, [
      deliveries.map(() => randomUUID()),
      deliveries.map((d) => d.notificationId),
      deliveries.map((d) => d.projectId),
      deliveries.map((d) => d.installedPluginId),
      deliveries.map((d) => JSON.stringify(d.threshold)),
    ])) as Row[];
    return rows.map((r) => ({ id: String(r['id']), attempts: Number(r['attempts']) }));
  }

  /**
   * Claims the delivery and reads what its attempt needs (CLAIM_SQL, one statement); null when
   * it is not due or another worker holds it.
   */
  async claim(id: string, owner: string, leaseSeconds: number): Promise<ClaimedDelivery | null> {
    const result = (await this.dataSource.query(CLAIM_SQL, [id, owner, leaseSeconds])) as
      Row[] | [Row[], number];
    // A CTE whose last statement is a SELECT answers rows; keep reading an [rows, count] too.
    const rows = (Array.isArray(result[0]) ? result[0] : result) as Row[];
    const r = rows[0];
    if (!r) return null;
    return {
      id: String(r['id']),
      notificationId: String(r['notification_id']),
      projectId: String(r['project_id']),
      installedPluginId: String(r['installed_plugin_id']),
      idempotencyKey: String(r['idempotency_key']),
      threshold: r['threshold'] as ChannelThreshold,
      state: r['state'] as DeliveryState,
      attempts: Number(r['attempts']),
      context: r['has_notification'] === true ? contextOf(r) : null,
      installation: r['has_plugin'] === true ? installationOf(r) : null,
    };
  }

  /** Writes the attempt's end; false when this worker no longer held the lease. */
  async finishDelivered(id: string, owner: string, result: unknown): Promise<boolean> {
    return this.finish(FINISH_DELIVERED_SQL, [id, owner, JSON.stringify(result ?? null)]);
  }

  async finishFailed(
    id: string,
    owner: string,
    code: string,
    message: string,
    counted: boolean,
  ): Promise<boolean> {
    return this.finish(FINISH_FAILED_SQL, [id, owner, code, message, counted ? 1 : 0]);
  }

  async finishCancelled(id: string, owner: string, code: string, message: string) {
    return this.finish(FINISH_CANCELLED_SQL, [id, owner, code, message]);
  }

  async finishRetry(
    id: string,
    owner: string,
    delaySeconds: number,
    counted: boolean,
    code: string | null,
    message: string | null,
  ): Promise<boolean> {
    return this.finish(FINISH_RETRY_SQL, [id, owner, delaySeconds, counted ? 1 : 0, code, message]);
  }

  async stranded(olderThanSeconds: number, limit: number): Promise<StrandedDelivery[]> {
    const rows = (await this.dataSource.query(STRANDED_SQL, [olderThanSeconds, limit])) as Row[];
    return rows.map((r) => ({
      id: String(r['id']),
      attempts: Number(r['attempts']),
      state: r['state'] as DeliveryState,
      leaseUntilMs: (r['lease_until_ms'] as string | null) ?? null,
    }));
  }

  private async finish(sql: string, params: unknown[]): Promise<boolean> {
    const rows = (await this.dataSource.query(sql, params)) as [Row[], number];
    return (rows[0]?.length ?? 0) > 0;
  }
}

function contextOf(r: Row): DeliveryContext {
  return {
    kind: r['kind'] as NotificationKind,
    counts: r['counts'] as NotificationCounts,
    items: r['items'] as NotificationItem[],
    sealedAt: (r['sealed_at'] as Date | null) ?? (r['opened_at'] as Date),
    project: { id: String(r['project_id']), name: String(r['project_name']) },
    channelSettings: (r['channel_settings'] as Record<string, unknown> | null) ?? null,
    channelSecretSettings: (r['channel_secret_settings'] as string | null) ?? null,
  };
}

function installationOf(r: Row): ClaimedInstallation {
  return {
    catalogPluginId: String(r['catalog_plugin_id']),
    enabled: r['enabled'] === true,
    capabilities: (r['capabilities'] as string[] | null) ?? [],
    artifactSha256: String(r['artifact_sha256']),
    manifest: r['manifest'] as Buffer,
    settings: (r['plugin_settings'] as Record<string, unknown> | null) ?? {},
    secretSettings: (r['plugin_secret_settings'] as string | null) ?? null,
  };
}
