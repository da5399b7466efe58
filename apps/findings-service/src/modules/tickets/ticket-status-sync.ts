import { Injectable } from '@nestjs/common';
import { systemActor } from '../action-log/finding-action';
import type { ProjectProvider } from './ticket-provider.gateway';
import { TicketStatusRepository, type KnownTask } from './ticket-status.repository';
import type { TicketStatus } from './tickets.entities';

/** The WIT `task-status` cases as the service stores them. */
export const WIT_STATUS: Record<string, TicketStatus> = {
  open: 'open',
  'in-progress': 'in_progress',
  resolved: 'resolved',
  closed: 'closed',
};

export type TrackerStatusResult = 'ignored' | 'unchanged' | 'updated';

/**
 * A tracker's word on one of its tasks — from a webhook delivery or from the hourly poll
 * (docs/findings-service/tickets.md, "Webhook" and "Polling"): the state is stored on the
 * ticket and written to its findings' action log; the findings themselves change only when
 * the project's `tracker_closed_action` is `mark_fixed` and the task was resolved or closed
 * (attention states only; a reopened task never reopens one). `via` names the path in the
 * actor, e.g. `tracker webhook`.
 */
@Injectable()
export class TicketStatusSync {
  constructor(private readonly status: TicketStatusRepository) {}

  async apply(
    provider: ProjectProvider,
    task: KnownTask,
    state: { status: string; raw: string },
    via: string,
  ): Promise<{ result: TrackerStatusResult; fixed?: number }> {
    const status = WIT_STATUS[state.status];
    if (!status) return { result: 'ignored' };
    const actor = systemActor(`${via} (${provider.plugin.catalogPluginId})`);
    const raw = state.raw.slice(0, 200);
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
