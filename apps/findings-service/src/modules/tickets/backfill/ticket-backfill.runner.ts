import { Injectable, Logger } from '@nestjs/common';
import type { Actor } from '../../action-log/finding-action';
import { ticketLabel } from '../ticket-labels';
import {
  providerRateLimit,
  TicketProviderGateway,
  type ProjectProvider,
  type TicketContext,
} from '../ticket-provider.gateway';
import { TicketsRepository, type TicketFinding } from '../tickets.repository';
import {
  TICKET_BACKFILL_FATAL_STREAK,
  TICKET_BACKFILL_PAGE,
  type TicketBackfillJob,
} from './ticket-backfill.job';
import {
  TicketBackfillsRepository,
  type BackfillCounts,
  type BackfillSelection,
} from './ticket-backfills.repository';
import { RATE_LIMIT_MAX_WAIT_SECONDS, TrackerPacer } from './tracker-pacer';
import { WalkSlots } from './walk-slots';
import { walkPage, type Outcome, type WalkState } from './page-walk';

interface TaskRef {
  id: string;
  key: string;
  url: string;
}

const BACKFILL_ACTOR: Actor = { type: 'system', id: null, label: 'ticket backfill' };

export { RATE_LIMIT_MAX_WAIT_SECONDS };
/** Rate-limit answers to one call in a row before its finding counts failed. */
export const RATE_LIMIT_RETRIES = 20;

/**
 * Findings under way at once (a walk's lanes, and all walks of a worker process together): the
 * runner's default per-plugin limit of concurrent calls. Each holds a database connection for
 * its transaction (the label's lock); the pool has 10.
 */
export const TICKET_BACKFILL_CONCURRENCY = 4;

/** The job's end: its state and counters (the job's return value). */
export interface BackfillResult extends BackfillCounts {
  state: 'completed' | 'failed' | 'cancelled';
}

/** One walk's shared state: its provider and its pace at the tracker. */
interface PageWalk extends WalkState {
  provider: ProjectProvider;
  mode: string;
  pacer: TrackerPacer;
}

/**
 * Walks a backfill (design §3.6): the project's findings without a ticket in the selection, in
 * id order, pages of TICKET_BACKFILL_PAGE from the row's cursor (a restarted or retried job
 * resumes there). Up to TICKET_BACKFILL_CONCURRENCY findings of a page are under way at once,
 * each in its own transaction under its label's lock (no finding gets two tickets, whatever
 * else runs). Per finding: the task carrying its label is linked; none and mode `create`
 * creates one; else skipped. The calls of one lane of a page share one plugin event (the
 * runner's instance; one project). A rate-limited call is asked again after the tracker's
 * `Retry-After`, the whole walk paused meanwhile and then paced at the tracker's rate when it
 * tells it (TrackerPacer; RATE_LIMIT_RETRIES times at most). A provider error counts as
 * failed and the walk goes on, except unauthorized/misconfigured TICKET_BACKFILL_FATAL_STREAK
 * times in a row (the job fails). After each page the row and the job's progress hold the
 * counters; a row no longer `running` (cancelled) stops the walk before the next page.
 */
@Injectable()
export class TicketBackfillRunner {
  private readonly logger = new Logger('TicketBackfillRunner');
  /** How the walk waits for a rate limit (replaced in unit tests). */
  wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  /** Findings under way in this process, all walks together (the connections they hold). */
  private slots = new WalkSlots(TICKET_BACKFILL_CONCURRENCY);

  /** A walk's lanes, and the process's findings under way (set only while no walk runs). */
  get concurrency(): number {
    return this.slots.size;
  }
  set concurrency(size: number) {
    this.slots = new WalkSlots(size);
  }

  constructor(
    private readonly backfills: TicketBackfillsRepository,
    private readonly tickets: TicketsRepository,
    private readonly gateway: TicketProviderGateway,
  ) {}

  async run(
    job: TicketBackfillJob,
    report: (counts: BackfillCounts) => Promise<void>,
  ): Promise<BackfillResult> {
    const row = await this.backfills.get(job.backfillId);
    if (!row) throw new Error(`ticket backfill ${job.backfillId} has no row`);
    if (row.state !== 'running') return { ...row, state: row.state as BackfillResult['state'] };
    const counts: BackfillCounts = {
      total: row.total,
      done: row.done,
      linked: row.linked,
      created: row.created,
      skipped: row.skipped,
      failed: row.failed,
    };
    const selection: BackfillSelection = {
      projectId: job.projectId,
      statuses: job.statuses,
      severities: job.severities,
    };
    let cursor = row.cursor;
    counts.total = counts.done + (await this.backfills.remaining(selection, cursor));
    let provider: ProjectProvider;
    try {
      provider = await this.gateway.forProject(job.projectId);
    } catch (error) {
      await this.backfills.finish(job.backfillId, 'failed');
      throw error;
    }
    const walk: PageWalk = {
      provider,
      mode: job.mode,
      pacer: new TrackerPacer((ms) => this.wait(ms)),
      counts,
      streak: 0,
      open: false,
    };
    for (;;) {
      const current = await this.backfills.get(job.backfillId);
      if (current?.state !== 'running') return { ...counts, state: 'cancelled' };
      const ids = await this.backfills.page(selection, cursor, TICKET_BACKFILL_PAGE);
      if (ids.length === 0) break;
      const page = await walkPage(walk, await this.tickets.findings(ids), this.slots, (f, e) =>
        this.one(walk, f, e),
      );
      cursor = page.cursor ?? cursor;
      if (page.error !== undefined) {
        await this.backfills.progress(job.backfillId, counts, cursor);
        throw page.error;
      }
      if (walk.streak >= TICKET_BACKFILL_FATAL_STREAK) {
        await this.backfills.progress(job.backfillId, counts, cursor);
        await this.backfills.finish(job.backfillId, 'failed');
        await report(counts);
        this.logger.warn(`ticket backfill ${job.backfillId} stopped: provider refuses the calls`);
        return { ...counts, state: 'failed' };
      }
      await this.backfills.progress(job.backfillId, counts, cursor);
      await report(counts);
    }
    await this.backfills.finish(job.backfillId, 'completed');
    return { ...counts, state: 'completed' };
  }

  /** One provider call, waiting and asking again while the tracker answers with a rate limit. */
  private async ask<T>(
    walk: PageWalk,
    operation: string,
    payload: Record<string, unknown>,
    context: TicketContext,
    eventId: string,
  ): Promise<T> {
    for (let retry = 0; ; retry++) {
      await walk.pacer.turn();
      try {
        return await this.gateway.call<T>(walk.provider, operation, payload, context, eventId);
      } catch (error) {
        const limit = providerRateLimit(error);
        if (limit === null || retry >= RATE_LIMIT_RETRIES) throw error;
        walk.pacer.limited(limit);
      }
    }
  }

  /** Links the task carrying the finding's label, else (mode create) creates one. */
  private one(walk: PageWalk, finding: TicketFinding, eventId: string): Promise<Outcome> {
    const { provider, mode } = walk;
    const label = ticketLabel([finding.id]);
    const context: TicketContext = {
      title: finding.title,
      label,
      target: provider.settings.defaultTarget,
      findings: [{ id: finding.id, title: finding.title, url: `/findings/${finding.id}` }],
    };
    return this.tickets.transaction(async (manager) => {
      await this.tickets.lockLabel(manager, label);
      const [again] = await this.tickets.findings([finding.id], manager);
      if (!again || again.ticketId) return 'skipped';
      let ref = await this.ask<TaskRef | null>(
        walk,
        'find-task-by-label',
        { label },
        context,
        eventId,
      );
      const outcome: Outcome = ref ? 'linked' : 'created';
      if (!ref) {
        if (mode !== 'create') return 'skipped';
        ref = await this.ask<TaskRef>(
          walk,
          'create-task',
          { target: context.target ?? undefined, finding: finding.witFinding },
          context,
          eventId,
        );
      }
      const id = await this.tickets.upsertTicket(manager, {
        projectId: provider.settings.projectId,
        pluginId: provider.plugin.id,
        taskId: ref.id,
        taskKey: ref.key,
        url: ref.url,
        status: 'open',
        rawStatus: '',
        origin: 'backfill',
        label,
        createdBy: null,
        statusRead: false,
      });
      await this.tickets.link(manager, id, [finding.id], BACKFILL_ACTOR, false);
      return outcome;
    });
  }
}
