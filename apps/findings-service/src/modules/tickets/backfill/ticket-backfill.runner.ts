import { Injectable, Logger } from '@nestjs/common';
import type { Actor } from '../../action-log/finding-action';
import { ticketLabel } from '../ticket-labels';
import {
  providerErrorKind,
  providerRetryAfterSeconds,
  TicketProviderGateway,
  type ProjectProvider,
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

type Outcome = 'linked' | 'created' | 'skipped';

interface TaskRef {
  id: string;
  key: string;
  url: string;
}

const BACKFILL_ACTOR: Actor = { type: 'system', id: null, label: 'ticket backfill' };

/** Provider error kinds that no later finding can fix: three in a row stop the backfill. */
const FATAL_KINDS = new Set(['unauthorized', 'misconfigured']);

/**
 * A tracker's rate limit (`retry-after:<s>` from the provider): the walk waits what it asked,
 * between 1 and RATE_LIMIT_MAX_WAIT_SECONDS, and asks again for the same finding, at most
 * RATE_LIMIT_RETRIES times in a row before counting it failed.
 */
export const RATE_LIMIT_MAX_WAIT_SECONDS = 60;
export const RATE_LIMIT_RETRIES = 20;

/** The job's end: its state and counters (the job's return value). */
export interface BackfillResult extends BackfillCounts {
  state: 'completed' | 'failed' | 'cancelled';
}

/**
 * Walks a backfill (design §3.6): the project's findings without a ticket in the selection, in
 * id order, pages of TICKET_BACKFILL_PAGE from the row's cursor (a restarted or retried job
 * resumes there). Per finding: the task carrying its label is linked; none and mode `create`
 * creates one; else skipped. A rate-limited call is waited for and asked again (the tracker's
 * `Retry-After`, RATE_LIMIT_RETRIES times at most). A provider error counts as failed and the
 * walk goes on, except
 * unauthorized/misconfigured TICKET_BACKFILL_FATAL_STREAK times in a row (the job fails). After
 * each page the row and the job's progress hold the counters; a row no longer `running`
 * (cancelled) stops the walk before the next page.
 */
@Injectable()
export class TicketBackfillRunner {
  private readonly logger = new Logger('TicketBackfillRunner');
  /** How the walk waits for a rate limit (replaced in unit tests). */
  wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
    let streak = 0;
    for (;;) {
      const current = await this.backfills.get(job.backfillId);
      if (current?.state !== 'running') return { ...counts, state: 'cancelled' };
      const ids = await this.backfills.page(selection, cursor, TICKET_BACKFILL_PAGE);
      if (ids.length === 0) break;
      for (const finding of await this.tickets.findings(ids)) {
        try {
          counts[await this.withinRateLimit(() => this.one(provider, finding, job.mode))] += 1;
          streak = 0;
        } catch (error) {
          const kind = providerErrorKind(error);
          if (kind === null) {
            await this.backfills.progress(job.backfillId, counts, cursor);
            throw error;
          }
          counts.failed += 1;
          streak = FATAL_KINDS.has(kind) ? streak + 1 : 0;
        }
        counts.done += 1;
        cursor = finding.id;
        if (streak >= TICKET_BACKFILL_FATAL_STREAK) {
          await this.backfills.progress(job.backfillId, counts, cursor);
          await this.backfills.finish(job.backfillId, 'failed');
          await report(counts);
          this.logger.warn(`ticket backfill ${job.backfillId} stopped: provider refuses the calls`);
          return { ...counts, state: 'failed' };
        }
      }
      await this.backfills.progress(job.backfillId, counts, cursor);
      await report(counts);
    }
    await this.backfills.finish(job.backfillId, 'completed');
    return { ...counts, state: 'completed' };
  }

  /** Runs `call`, waiting and asking again while the tracker answers with a rate limit. */
  private async withinRateLimit<T>(call: () => Promise<T>): Promise<T> {
    for (let retry = 0; ; retry++) {
      try {
        return await call();
      } catch (error) {
        const seconds = providerRetryAfterSeconds(error);
        if (seconds === null || retry >= RATE_LIMIT_RETRIES) throw error;
        await this.wait(Math.min(Math.max(seconds, 1), RATE_LIMIT_MAX_WAIT_SECONDS) * 1000);
      }
    }
  }

  /** Links the task carrying the finding's label, else (mode create) creates one. */
  private one(provider: ProjectProvider, finding: TicketFinding, mode: string): Promise<Outcome> {
    const label = ticketLabel([finding.id]);
    const context = {
      title: finding.title,
      label,
      target: provider.settings.defaultTarget,
      findings: [{ id: finding.id, title: finding.title, url: `/findings/${finding.id}` }],
    };
    return this.tickets.transaction(async (manager) => {
      await this.tickets.lockLabel(manager, label);
      const [again] = await this.tickets.findings([finding.id], manager);
      if (!again || again.ticketId) return 'skipped';
      let ref = await this.gateway.call<TaskRef | null>(
        provider,
        'find-task-by-label',
        { label },
        context,
      );
      const outcome: Outcome = ref ? 'linked' : 'created';
      if (!ref) {
        if (mode !== 'create') return 'skipped';
        ref = await this.gateway.call<TaskRef>(
          provider,
          'create-task',
          { target: context.target ?? undefined, finding: finding.witFinding },
          context,
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
