import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { envelopeOf, type WebhookEvent } from './webhook-events';

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
  const at = new Date();
  const envelopes = events.map((e) => envelopeOf(e, at));
  const result = (await em.query(
    `INSERT INTO webhook_deliveries (endpoint_id, event_type, event_id, payload, status, attempts, next_attempt_at, created_at)
     SELECT e.id, ev.type, ev.id, ev.payload, 'pending', 0, $2, $2
     FROM jsonb_to_recordset($1::jsonb) AS ev(id uuid, type text, payload jsonb)
     JOIN webhook_endpoints e
       ON e.enabled AND (cardinality(e.event_types) = 0 OR ev.type = ANY(e.event_types))
     RETURNING 1`,
    [JSON.stringify(envelopes.map((e) => ({ id: e.id, type: e.type, payload: e }))), at],
  )) as unknown[];
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
