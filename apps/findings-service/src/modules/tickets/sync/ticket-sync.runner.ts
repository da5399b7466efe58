import { Injectable, Logger } from '@nestjs/common';
import { systemActor } from '../../action-log/finding-action';
import {
  providerErrorKind,
  TicketProviderGateway,
  type ProjectProvider,
} from '../ticket-provider.gateway';
import { TicketStatusRepository } from '../ticket-status.repository';
import { WIT_STATUS } from '../ticket-status-sync';
import type { TicketStatus } from '../tickets.entities';
import { syncComment, trackerMove, wantedTrackerStatus, WIT_TASK_STATUS } from './ticket-sync-plan';
import { TicketSyncRepository, type TicketToSync } from './ticket-sync.repository';

export type TicketSyncOutcome =
  /** No request pending, or the ticket is gone. */
  | { result: 'nothing' }
  /** Sync is off for the project, or the ticket belongs to a provider it no longer uses. */
  | { result: 'skipped' }
  /** The task is where the findings say it should be (or must not be moved back). */
  | { result: 'unchanged' }
  | { result: 'moved'; status: TicketStatus; commented: boolean }
  /** The provider refused for good: the reason is on the ticket (`sync_error`). */
  | { result: 'failed'; reason: string };

/** Provider answers that no retry changes (the tracker said no, or the settings are wrong). */
const PERMANENT_KINDS = new Set(['unauthorized', 'not-found', 'misconfigured', 'rejected']);

/**
 * One service-to-tracker sync of a ticket (docs/findings-service/tickets.md, "Service to
 * tracker"): the tracker state its findings call for, compared with the stored one; when the
 * task must move, `transition`, then `read-status` for the tracker's own state name, stored on
 * the ticket (and logged on its findings as `ticket_status_changed`), then a comment naming
 * the change. A transient failure throws (the queue retries); a permanent one, or the last
 * attempt's, is recorded on the ticket and clears the request.
 */
@Injectable()
export class TicketSyncRunner {
  private readonly logger = new Logger('TicketSync');

  constructor(
    private readonly repository: TicketSyncRepository,
    private readonly gateway: TicketProviderGateway,
    private readonly status: TicketStatusRepository,
  ) {}

  async sync(ticketId: string, lastAttempt: boolean): Promise<TicketSyncOutcome> {
    const ticket = await this.repository.load(ticketId);
    if (!ticket?.requested) return { result: 'nothing' };
    const requested = ticket.requested;
    try {
      const provider = await this.gateway.forProjectIfConfigured(ticket.projectId);
      if (
        !provider ||
        !provider.settings.syncStatusToTracker ||
        provider.plugin.id !== ticket.pluginId
      ) {
        await this.repository.done(ticket.id, requested, false);
        return { result: 'skipped' };
      }
      const move = trackerMove(ticket.status, wantedTrackerStatus(ticket.findings));
      if (move === null) {
        await this.repository.done(ticket.id, requested, false);
        return { result: 'unchanged' };
      }
      const outcome = await this.move(provider, ticket, move);
      await this.repository.done(ticket.id, requested, true);
      return outcome;
    } catch (error) {
      const kind = providerErrorKind(error);
      if (!lastAttempt && (kind === null || !PERMANENT_KINDS.has(kind))) throw error;
      const reason = reasonOf(error, kind);
      await this.repository.fail(ticket.id, requested, reason);
      this.logger.warn(`ticket ${ticket.id}: transition failed for good (${reason})`);
      return { result: 'failed', reason };
    }
  }

  private async move(
    provider: ProjectProvider,
    ticket: TicketToSync,
    to: TicketStatus,
  ): Promise<TicketSyncOutcome> {
    await this.gateway.call(provider, 'transition', {
      taskId: ticket.taskId,
      status: WIT_TASK_STATUS[to],
    });
    // The tracker's own name of the state it is now in; the transition itself is done, so a
    // failed read stores the state asked for under no name rather than asking again.
    const state = await this.gateway
      .call<{ status: string; raw: string }>(provider, 'read-status', { taskId: ticket.taskId })
      .catch(() => ({ status: WIT_TASK_STATUS[to], raw: '' }));
    const stored = WIT_STATUS[state.status] ?? to;
    const actor = systemActor(`ticket sync (${provider.plugin.catalogPluginId})`);
    await this.status.transaction((manager) =>
      this.status.setStatus(manager, ticket.id, stored, state.raw.slice(0, 200), actor),
    );
    const commented = await this.gateway
      .call(provider, 'add-comment', {
        taskId: ticket.taskId,
        body: syncComment(ticket.findings, to),
      })
      .then(
        () => true,
        (error: unknown) => {
          this.logger.warn(
            `ticket ${ticket.id}: comment not added (${reasonOf(error, providerErrorKind(error))})`,
          );
          return false;
        },
      );
    return { result: 'moved', status: stored, commented };
  }
}

/** What the ticket keeps of a failure: the provider's kind and its (shortened) words. */
function reasonOf(error: unknown, kind: string | null): string {
  if (kind !== null) {
    const problem = (error as { details?: { problem?: unknown } }).details?.problem;
    return typeof problem === 'string' && problem !== '' ? `${kind}: ${problem}` : kind;
  }
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'internal_error';
}
