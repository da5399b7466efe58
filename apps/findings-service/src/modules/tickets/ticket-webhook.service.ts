import { Injectable } from '@nestjs/common';
import { systemActor } from '../action-log/finding-action';
import { TicketProviderGateway } from './ticket-provider.gateway';
import { TicketSettingsRepository } from './ticket-settings.repository';
import { TicketStatusRepository } from './ticket-status.repository';
import type { TicketStatus } from './tickets.entities';
import { TicketsError } from './tickets.errors';
import { webhookSecretAccepted } from './webhook-secret';

/** Headers never handed to a plugin. */
const WITHHELD_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

const WIT_STATUS: Record<string, TicketStatus> = {
  open: 'open',
  'in-progress': 'in_progress',
  resolved: 'resolved',
  closed: 'closed',
};

export type WebhookResult = 'ignored' | 'unchanged' | 'updated';

interface WebhookEvent {
  taskId: string;
  state?: { status: string; raw: string } | null;
  comment?: string | null;
}

/**
 * POST /webhooks/ticketing/{project_id}/{secret} (docs/findings-service/tickets.md, "Webhook"):
 * the secret is checked against the project's current one, or the previous one during the
 * rotation grace; anything else is 404 `not_found`. The provider reads the delivery; a state
 * change is stored on the ticket and written to its findings' action log; the findings
 * themselves change only when the project's `tracker_closed_action` is `mark_fixed` and the
 * task was resolved or closed (attention states only; a reopened task never reopens one).
 */
@Injectable()
export class TicketWebhookService {
  constructor(
    private readonly settings: TicketSettingsRepository,
    private readonly gateway: TicketProviderGateway,
    private readonly status: TicketStatusRepository,
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
    const provider = await this.gateway.forProject(projectId).catch((error: unknown) => {
      if (error instanceof TicketsError && error.code === 'ticket_provider_not_configured') {
        return null;
      }
      throw error;
    });
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
    const status = WIT_STATUS[event.state.status];
    if (!task || !status) return { result: 'ignored' };
    const actor = systemActor(`tracker webhook (${provider.plugin.catalogPluginId})`);
    const raw = event.state.raw.slice(0, 200);
    return this.status.transaction(async (manager) => {
      const change = await this.status.setStatus(manager, task.ticketId, status, raw, actor);
      if (!change.changed) return { result: 'unchanged' as const };
      const closes = status === 'resolved' || status === 'closed';
      if (!closes || provider.settings.trackerClosedAction !== 'mark_fixed') {
        return { result: 'updated' as const };
      }
      const fixed = await this.status.fixFindings(
        manager,
        task.ticketId,
        actor,
        `task ${task.taskKey} closed in the tracker (${raw})`,
        new Date(),
      );
      return { result: 'updated' as const, fixed };
    });
  }
}
