import { randomUUID } from 'node:crypto';

/** Event types an endpoint can subscribe to (docs/certificate-service/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = [
  'request.created',
  'request.approved',
  'request.rejected',
  'certificate.issued',
  'certificate.revoked',
  'device.blocked',
  'device.unblocked',
  'license.activated',
  'license.tamper',
  'license.reanchored',
  'directive.created',
  'directive.reported',
  'directive.cancelled',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One event as its owner reports it; `data` is the type's documented payload. */
export interface WebhookEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** The JSON body a receiver gets: the same for every endpoint and every attempt. */
export interface WebhookEnvelope {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: Record<string, unknown>;
}

export function envelopeOf(event: WebhookEvent, at: Date = new Date()): WebhookEnvelope {
  return { id: randomUUID(), type: event.type, created_at: at.toISOString(), data: event.data };
}
