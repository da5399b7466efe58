import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { actorLabel, type Actor } from '../../app/access/actor';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuditService } from '../audit/audit.service';
import { WebhookDeliveriesRepository, type DeliveryRow } from './webhook-deliveries.repository';
import type { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointsRepository, type EndpointChanges } from './webhook-endpoints.repository';
import { WebhookHttp } from './webhook-http';
import { endpointSecretLabel, generateSecret, sealSecret } from './webhook-secret';
import { WebhooksError } from './webhooks.errors';

export interface WebhookInput {
  url?: string;
  description?: string;
  eventTypes?: string[];
  enabled?: boolean;
  secret?: string;
}

/**
 * Webhook endpoints (cert-admin): URLs checked by the request-forgery guard when saved (and
 * again at every send), secrets sealed with `CERTSVC_WEBHOOK_ENC_KEY` and shown only in the
 * answer that set them, every change audited (never with the secret).
 */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly http: WebhookHttp,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.list();
  }

  async get(id: string): Promise<WebhookEndpointEntity> {
    const row = isUUID(id, 'loose') ? await this.endpoints.get(id.toLowerCase()) : null;
    if (!row) throw new WebhooksError('webhook_not_found');
    return row;
  }

  async create(
    actor: Actor,
    input: WebhookInput & { url: string },
  ): Promise<{ endpoint: WebhookEndpointEntity; secret: string }> {
    const key = this.key();
    this.checkUrl(input.url);
    const id = randomUUID();
    const secret = input.secret ?? generateSecret();
    const endpoint = await this.endpoints.create({
      id,
      url: input.url,
      description: input.description ?? '',
      eventTypes: input.eventTypes ?? [],
      enabled: input.enabled ?? true,
      secretSealed: sealSecret(secret, key, endpointSecretLabel(id)),
      createdBy: actorLabel(actor),
    });
    await this.audit.record({
      action: 'webhook.create',
      actor,
      target: id,
      details: { ...publicFields(endpoint), secret_generated: input.secret === undefined },
    });
    return { endpoint, secret };
  }

  async update(
    actor: Actor,
    id: string,
    input: WebhookInput,
  ): Promise<{ endpoint: WebhookEndpointEntity; secret?: string }> {
    const before = await this.get(id);
    const changes: EndpointChanges = {};
    if (input.url !== undefined) {
      this.checkUrl(input.url);
      changes.url = input.url;
    }
    if (input.description !== undefined) changes.description = input.description;
    if (input.eventTypes !== undefined) changes.eventTypes = input.eventTypes;
    if (input.secret !== undefined) {
      changes.secretSealed = sealSecret(input.secret, this.key(), endpointSecretLabel(before.id));
    }
    const old = publicFields(before);
    const endpoint = await this.endpoints.update(before.id, changes);
    if (!endpoint) throw new WebhooksError('webhook_not_found');
    await this.audit.record({
      action: 'webhook.update',
      actor,
      target: before.id,
      details: { old, new: publicFields(endpoint), secret_changed: input.secret !== undefined },
    });
    return { endpoint, ...(input.secret !== undefined ? { secret: input.secret } : {}) };
  }

  async setEnabled(actor: Actor, id: string, enabled: boolean): Promise<WebhookEndpointEntity> {
    const before = await this.get(id);
    const endpoint = await this.endpoints.update(before.id, { enabled });
    if (!endpoint) throw new WebhooksError('webhook_not_found');
    if (before.enabled !== enabled) {
      await this.audit.record({
        action: enabled ? 'webhook.enable' : 'webhook.disable',
        actor,
        target: before.id,
        details: { url: endpoint.url },
      });
    }
    return endpoint;
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const before = await this.get(id);
    if (!(await this.endpoints.delete(before.id))) throw new WebhooksError('webhook_not_found');
    await this.audit.record({
      action: 'webhook.delete',
      actor,
      target: before.id,
      details: publicFields(before),
    });
  }

  /** Queues a `webhook.test` delivery to this endpoint (whatever its event filter). */
  async test(actor: Actor, id: string): Promise<string> {
    const endpoint = await this.get(id);
    if (!endpoint.enabled) throw new WebhooksError('webhook_disabled');
    const deliveryId = await this.deliveries.enqueueFor(endpoint.id, {
      type: 'webhook.test',
      data: { endpoint_id: endpoint.id, requested_by: actorLabel(actor) },
    });
    await this.audit.record({
      action: 'webhook.test',
      actor,
      target: endpoint.id,
      details: { delivery_id: deliveryId },
    });
    return deliveryId;
  }

  async deliveriesOf(
    id: string,
    limit: number,
    page: number,
  ): Promise<{ items: DeliveryRow[]; total: number }> {
    const endpoint = await this.get(id);
    return this.deliveries.page(endpoint.id, limit, page);
  }

  private key(): Buffer {
    const key = this.config.webhooks.encryptionKey;
    if (!key) throw new WebhooksError('webhook_encryption_key_missing');
    return key;
  }

  /** The guard's checks without DNS (the address is checked again, with DNS, at every send). */
  private checkUrl(url: string): void {
    const check = this.http.check(url);
    if (!check.ok) {
      throw new WebhooksError('webhook_url_refused', `${check.reason}: ${check.message}`);
    }
  }
}

function publicFields(e: WebhookEndpointEntity): Record<string, unknown> {
  return { url: e.url, description: e.description, event_types: e.eventTypes, enabled: e.enabled };
}
