import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type DeliveryStatus } from './webhook-delivery.entity';
import { envelopeOf, type WebhookEvent } from './webhook-events';

/** A delivery as the admin log shows it. */
export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventType: string;
  eventId: string;
  status: DeliveryStatus;
  attempts: number;
  lastResponseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** A due delivery claimed by a worker, with what it sends. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventType: string;
  /** The stored envelope, serialised once: the same bytes on every attempt. */
  body: string;
  attempts: number;
}

/** The result of one attempt. */
export type AttemptResult =
  | { id: string; attempts: number; outcome: 'delivered'; code: number }
  | {
      id: string;
      attempts: number;
      outcome: 'retry' | 'failed';
      code: number | null;
      error: string;
      nextAttemptAt: Date;
    };

/** The only place that touches `webhook_deliveries` (besides the exported outbox insert). */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(
    endpointId: string,
    limit: number,
    page: number,
  ): Promise<{ items: DeliveryRow[]; total: number }> {
    const rows = (await this.dataSource.query(
      `SELECT id, endpoint_id, event_type, event_id, status, attempts, last_response_code, last_error,
              next_attempt_at, created_at, delivered_at, count(*) OVER () AS total
       FROM webhook_deliveries WHERE endpoint_id = $1
       ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [endpointId, limit, (page - 1) * limit],
    )) as Record<string, unknown>[];
    const total =
      rows.length > 0
        ? Number(rows[0].total)
        : Number(
            (
              (await this.dataSource.query(
                `SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1`,
                [endpointId],
              )) as { n: string }[]
            )[0].n,
          );
    return {
      total,
      items: rows.map((r) => ({
        id: r.id as string,
        endpointId: r.endpoint_id as string,
        eventType: r.event_type as string,
        eventId: r.event_id as string,
        status: r.status as DeliveryStatus,
        attempts: r.attempts as number,
        lastResponseCode: r.last_response_code as number | null,
        lastError: r.last_error as string | null,
        nextAttemptAt: r.next_attempt_at as Date,
        createdAt: r.created_at as Date,
        deliveredAt: r.delivered_at as Date | null,
      })),
    };
  }

  /** Queues one event for one endpoint (the test delivery); returns the delivery id. */
  async enqueueFor(endpointId: string, event: WebhookEvent): Promise<string> {
    const envelope = envelopeOf(event);
    const rows = (await this.dataSource.query(
      `INSERT INTO webhook_deliveries (endpoint_id, event_type, event_id, payload, status, attempts, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4::jsonb, 'pending', 0, now(), now()) RETURNING id`,
      [endpointId, envelope.type, envelope.id, JSON.stringify(envelope)],
    )) as { id: string }[];
    return rows[0].id;
  }

  /**
   * Claims up to `limit` due deliveries of enabled endpoints: `FOR UPDATE SKIP LOCKED` so
   * concurrent workers never take the same row, and `next_attempt_at` moved one lease ahead so
   * a row whose worker dies before recording the attempt becomes due again after the lease.
   * No ORDER BY: with a burst of due rows the planner (often without fresh statistics for
   * them) sorted every due row on each claim — 40 ms and more per 200 rows at 80 000 due; in
   * any order the scan stops after `limit` rows. A drain claims until nothing is due, so no
   * due row waits longer than one drain behind the others.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const rows = (await this.dataSource.query(
      `UPDATE webhook_deliveries d
       SET next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
       FROM (
         SELECT w.id FROM webhook_deliveries w
         JOIN webhook_endpoints e ON e.id = w.endpoint_id AND e.enabled
         WHERE w.status = 'pending' AND w.next_attempt_at <= now()
         LIMIT $1
         FOR UPDATE OF w SKIP LOCKED
       ) due
       WHERE d.id = due.id
       RETURNING d.id, d.endpoint_id, d.event_type, d.payload::text AS body, d.attempts`,
      [limit, leaseMs],
    )) as [
      { id: string; endpoint_id: string; event_type: string; body: string; attempts: number }[],
      number,
    ];
    return rows[0].map((r) => ({
      id: r.id,
      endpointId: r.endpoint_id,
      eventType: r.event_type,
      body: r.body,
      attempts: r.attempts,
    }));
  }

  /**
   * Records a batch of attempts in two statements. A row is updated only while still pending
   * with the attempt count it was claimed with: a worker that outlived its lease cannot
   * overwrite the attempt of the worker that claimed the row after it.
   */
  async record(results: readonly AttemptResult[]): Promise<void> {
    const delivered = results.filter((r) => r.outcome === 'delivered');
    const failed = results.filter((r) => r.outcome !== 'delivered');
    if (delivered.length > 0) {
      await this.dataSource.query(
        `UPDATE webhook_deliveries d
         SET status = 'delivered', attempts = d.attempts + 1, last_response_code = r.code,
             last_error = NULL, delivered_at = now()
         FROM unnest($1::uuid[], $2::int[], $3::int[]) AS r(id, attempts, code)
         WHERE d.id = r.id AND d.status = 'pending' AND d.attempts = r.attempts`,
        [
          delivered.map((r) => r.id),
          delivered.map((r) => r.attempts),
          delivered.map((r) => r.code),
        ],
      );
    }
    if (failed.length > 0) {
      await this.dataSource.query(
        `UPDATE webhook_deliveries d
         SET status = r.status, attempts = d.attempts + 1, last_response_code = r.code,
             last_error = r.error, next_attempt_at = r.next_at
         FROM unnest($1::uuid[], $2::int[], $3::text[], $4::int[], $5::text[], $6::timestamptz[])
           AS r(id, attempts, status, code, error, next_at)
         WHERE d.id = r.id AND d.status = 'pending' AND d.attempts = r.attempts`,
        [
          failed.map((r) => r.id),
          failed.map((r) => r.attempts),
          failed.map((r) => (r.outcome === 'failed' ? 'failed' : 'pending')),
          failed.map((r) => ('code' in r ? r.code : null)),
          failed.map((r) => ('error' in r ? r.error : null)),
          failed.map((r) => ('nextAttemptAt' in r ? r.nextAttemptAt : new Date())),
        ],
      );
    }
  }

  /** Deletes deliveries created before `before` (any status); the number removed. */
  async purgeCreatedBefore(before: Date): Promise<number> {
    const result = (await this.dataSource.query(
      `DELETE FROM webhook_deliveries WHERE created_at < $1`,
      [before],
    )) as [unknown[], number];
    return result[1];
  }
}
