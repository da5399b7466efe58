import { Injectable } from '@nestjs/common';
import { TicketProviderGateway } from './ticket-provider.gateway';
import { TicketSettingsRepository } from './ticket-settings.repository';
import { TicketStatusRepository } from './ticket-status.repository';
import { TicketStatusSync, type TrackerStatusResult } from './ticket-status-sync';
import { TicketsError } from './tickets.errors';
import { webhookSecretAccepted } from './webhook-secret';

/** Headers never handed to a plugin. */
const WITHHELD_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export type WebhookResult = TrackerStatusResult;

interface WebhookEvent {
  taskId: string;
  state?: { status: string; raw: string } | null;
  comment?: string | null;
}

/**
 * POST /webhooks/ticketing/{project_id}/{secret} (docs/findings-service/tickets.md, "Webhook"):
 * the secret is checked against the project's current one, or the previous one during the
 * rotation grace; anything else is 404 `not_found`. The provider reads the delivery; a state
 * change goes through TicketStatusSync (stored, logged, and the findings fixed only under
 * `mark_fixed`).
 */
@Injectable()
export class TicketWebhookService {
  constructor(
    private readonly settings: TicketSettingsRepository,
    private readonly gateway: TicketProviderGateway,
    private readonly status: TicketStatusRepository,
    private readonly sync: TicketStatusSync,
  ) {}

  async receive(
    projectId: string,
    secret: string,
    headers: Record<string, string | string[] | undefined>,
    body: string,
  ): Promise<{ result: WebhookResult; fixed?: number }> {
    const stored = await this.settings.get(projectId);
    const accepted = webhookSecretAccepted(
      secret,
      {
        current: stored?.webhookSecretHash ?? null,
        previous: stored?.previousSecretHash ?? null,
        previousValidUntil: stored?.previousValidUntil ?? null,
      },
      new Date(),
    );
    if (!stored || !accepted) throw new TicketsError('not_found');
    const provider = await this.gateway.forProjectIfConfigured(projectId);
    if (!provider) return { result: 'ignored' };
    const event = await this.gateway.call<WebhookEvent | null>(provider, 'parse-webhook', {
      headers: Object.entries(headers)
        .filter(([name]) => !WITHHELD_HEADERS.has(name.toLowerCase()))
        .map(([name, value]) => ({
          name: name.toLowerCase(),
          value: Array.isArray(value) ? value.join(', ') : (value ?? ''),
        })),
      body,
    });
    if (!event?.state) return { result: 'ignored' };
    const task = await this.status.task(provider.plugin.id, projectId, event.taskId);
    if (!task) return { result: 'ignored' };
    return this.sync.apply(provider, task, event.state, 'tracker webhook');
  }
}
