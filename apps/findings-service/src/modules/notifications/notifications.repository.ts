import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { StatementBatcher } from '@platform/database';
import { claimedOf, type ClaimedDelivery } from './claimed-delivery';
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

export type { ClaimedDelivery, ClaimedInstallation, DeliveryContext } from './claimed-delivery';

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
  /** Per lease owner and lease length (one of each per worker process in practice). */
  private readonly claims = new Map<string, StatementBatcher<string, ClaimedDelivery | null>>();
  private readonly deliveredFinishes = new Map<
    string,
    StatementBatcher<{ id: string; result: string }, boolean>
  >();

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
   * Claims the delivery and reads what its attempt needs (CLAIM_SQL); null when it is not due
   * or another worker holds it. Concurrent claims of one lease owner share a statement.
   */
  claim(id: string, owner: string, leaseSeconds: number): Promise<ClaimedDelivery | null> {
    return this.batch(
      this.claims,
      `${owner}\u0000${leaseSeconds}`,
      () =>
        new StatementBatcher<string, ClaimedDelivery | null>((ids) =>
          this.claimAll(ids, owner, leaseSeconds),
        ),
    ).submit(id);
  }

  /** Writes the attempt's end; false when this worker no longer held the lease. */
  finishDelivered(id: string, owner: string, result: unknown): Promise<boolean> {
    return this.batch(
      this.deliveredFinishes,
      owner,
      () =>
        new StatementBatcher<{ id: string; result: string }, boolean>((rows) =>
          this.finishAllDelivered(rows, owner),
        ),
    ).submit({ id, result: JSON.stringify(result ?? null) });
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

  private batch<B>(batchers: Map<string, B>, key: string, make: (key: string) => B): B {
    let batcher = batchers.get(key);
    if (!batcher) batchers.set(key, (batcher = make(key)));
    return batcher;
  }

  private async claimAll(
    ids: string[],
    owner: string,
    leaseSeconds: number,
  ): Promise<(ClaimedDelivery | null)[]> {
    const result = (await this.dataSource.query(CLAIM_SQL, [
      [...ids].sort(),
      owner,
      leaseSeconds,
    ])) as Row[] | [Row[], number];
    // A CTE whose last statement is a SELECT answers rows; keep reading an [rows, count] too.
    const rows = (Array.isArray(result[0]) ? result[0] : result) as Row[];
    const byId = new Map(rows.map((r) => [String(r['id']).toLowerCase(), claimedOf(r)]));
    // Two jobs of one delivery in one batch: the first claims it, the other finds it taken (as
    // a claim of its own right after would).
    return ids.map((id) => {
      const key = id.toLowerCase();
      const claimed = byId.get(key) ?? null;
      byId.delete(key);
      return claimed;
    });
  }

  private async finishAllDelivered(
    rows: { id: string; result: string }[],
    owner: string,
  ): Promise<boolean[]> {
    // Sorted by id: concurrent statements lock their rows in one order.
    const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const result = (await this.dataSource.query(FINISH_DELIVERED_SQL, [
      sorted.map((r) => r.id),
      sorted.map((r) => r.result),
      owner,
    ])) as [Row[], number];
    const done = new Set((result[0] ?? []).map((r) => String(r['id']).toLowerCase()));
    return rows.map((r) => done.has(r.id.toLowerCase()));
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
