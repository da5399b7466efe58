import { Injectable } from '@nestjs/common';
import { TicketsError } from '../tickets.errors';
import { TicketBackfillsRepository } from './ticket-backfills.repository';

/**
 * Cancel and retry of a history backfill, for the jobs API (`/jobs/{id}/cancel|retry` with a
 * `tbf-…` id): the tickets module owns `ticket_backfills`, the jobs module moves the queue job.
 */
@Injectable()
export class TicketBackfillControl {
  constructor(private readonly backfills: TicketBackfillsRepository) {}

  /** Whether the backfill was running and is now cancelled. */
  cancel(id: string): Promise<boolean> {
    return this.backfills.cancel(id);
  }

  /**
   * Marks a failed or cancelled backfill running again (its walk resumes after its cursor);
   * false when it is in another state; 409 `ticket_backfill_running` when the project already
   * runs one.
   */
  async resume(id: string): Promise<boolean> {
    const row = await this.backfills.get(id);
    const resumed = await this.backfills.resume(id);
    if (resumed === 'running') {
      throw new TicketsError('ticket_backfill_running', { project_id: row?.projectId ?? null });
    }
    return resumed === 'resumed';
  }
}
