import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { envelopeOf, type WebhookEvent } from './webhook-events';

/**
 * The outbox's fan-out `INSERT ... SELECT` of `events`, with its two parameters numbered from
 * `first` (`$first` the events as JSON, `$first+1` the time): a statement of its own or a
 * member of a larger one (the enrollment writes a new device, its request and the event in
 * one statement). `rows` names a relation that must hold a row for anything to be written
 * (the enrollment's inserted request), none: always.
 */
export function webhookOutboxInsert(
  events: readonly WebhookEvent[],
  first: number,
  rows?: string,
): { sql: string; params: unknown[] } {
  const at = new Date();
  const envelopes = events.map((e) => envelopeOf(e, at));
  return {
    sql: `INSERT INTO webhook_deliveries (endpoint_id, event_type, event_id, payload, status, attempts, next_attempt_at, created_at)
     SELECT e.id, ev.type, ev.id, ev.payload, 'pending', 0, $${first + 1}, $${first + 1}
     FROM jsonb_to_recordset($${first}::jsonb) AS ev(id uuid, type text, payload jsonb)
     JOIN webhook_endpoints e
       ON e.enabled AND (cardinality(e.event_types) = 0 OR ev.type = ANY(e.event_types))
     ${rows ? `WHERE EXISTS (SELECT 1 FROM ${rows})` : ''}
     RETURNING 1`,
    params: [JSON.stringify(envelopes.map((e) => ({ id: e.id, type: e.type, payload: e }))), at],
  };
}

/**
 * Writes outbox rows for events, called by each event's owner inside the transaction that
 * makes the event happen: rows commit with it or not at all (a rolled-back approval sends
 * nothing). One set-based `INSERT ... SELECT` per call fans the events out to every enabled
 * endpoint subscribed to their type, whatever the number of events.
 */
export async function enqueueWebhookEvents(
  em: EntityManager,
  events: readonly WebhookEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  const { sql, params } = webhookOutboxInsert(events, 1);
  const result = (await em.query(sql, params)) as unknown[];
  return result.length;
}

/**
 * The outbox as the event owners receive it: `enqueue(em, events)` inside their transaction.
 * With `CERTSVC_WEBHOOKS_ENABLED=false` nothing is written (no backlog piles up unsent).
 */
@Injectable()
export class WebhookOutbox {
  constructor(@Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig) {}

  get enabled(): boolean {
    return this.config.webhooks.enabled;
  }

  async enqueue(em: EntityManager, events: readonly WebhookEvent[]): Promise<number> {
    if (!this.enabled) return 0;
    return enqueueWebhookEvents(em, events);
  }
}
