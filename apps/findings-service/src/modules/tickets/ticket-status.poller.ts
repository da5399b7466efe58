import { Injectable, Logger } from '@nestjs/common';
import type { ProjectProvider } from './ticket-provider.gateway';
import { TicketProviderGateway } from './ticket-provider.gateway';
import { TicketStatusRepository } from './ticket-status.repository';
import { TicketStatusSync } from './ticket-status-sync';
import { TicketsError } from './tickets.errors';

/** Tickets asked about per pass (the oldest checked first). */
export const POLL_BATCH = 500;

export interface PollPass {
  checked: number;
  updated: number;
  fixed: number;
  failed: number;
}

/**
 * The polling fallback (docs/findings-service/tickets.md, "Polling"): for projects whose
 * tracker sends no webhooks (no webhook secret issued), the leading worker asks the provider's
 * `read-status` hourly for at most POLL_BATCH tickets, the longest unchecked first, and applies
 * the answer as a webhook delivery would (TicketStatusSync, actor `tracker poll`). A task the
 * provider cannot answer for is counted and asked again on a later pass; a runner that cannot
 * be reached ends the pass (the next one starts over).
 */
@Injectable()
export class TicketStatusPoller {
  private readonly logger = new Logger(TicketStatusPoller.name);

  constructor(
    private readonly status: TicketStatusRepository,
    private readonly gateway: TicketProviderGateway,
    private readonly sync: TicketStatusSync,
  ) {}

  async pollOnce(limit = POLL_BATCH): Promise<PollPass> {
    const pass: PollPass = { checked: 0, updated: 0, fixed: 0, failed: 0 };
    const providers = new Map<string, ProjectProvider | null>();
    for (const task of await this.status.pollDue(limit)) {
      if (!providers.has(task.projectId)) {
        providers.set(task.projectId, await this.gateway.forProjectIfConfigured(task.projectId));
      }
      const provider = providers.get(task.projectId);
      if (!provider) {
        await this.status.touch(task.ticketId);
        continue;
      }
      try {
        const state = await this.gateway.call<{ status: string; raw: string }>(
          provider,
          'read-status',
          { taskId: task.taskId },
        );
        const applied = await this.sync.apply(provider, task, state, 'tracker poll');
        pass.checked += 1;
        if (applied.result === 'updated') pass.updated += 1;
        pass.fixed += applied.fixed ?? 0;
        if (applied.result === 'ignored') await this.status.touch(task.ticketId);
      } catch (error) {
        if (error instanceof TicketsError && error.code === 'service_unavailable') throw error;
        pass.failed += 1;
        await this.status.touch(task.ticketId);
        const reason = error instanceof TicketsError ? error.code : (error as Error).name;
        this.logger.warn(`ticket ${task.ticketId}: read-status failed (${reason})`);
      }
    }
    return pass;
  }
}
