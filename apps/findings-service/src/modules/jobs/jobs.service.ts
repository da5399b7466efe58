import { Injectable } from '@nestjs/common';
import type { Job, JobType } from 'bullmq';
import type { AccessContext } from '../../app/access/access-context';
import { ProjectAccessService } from '../projects/project-access.service';
import { guardQueue } from '../report-queue/queue-guard';
import { ReportQueue } from '../report-queue/report-queue.provider';
import {
  INGEST_JOB_RETENTION_SECONDS,
  INGEST_REPORT,
  REPORT_INGESTION_QUEUE,
} from '../report-queue/ingest-report.job';
import type { ReportEntity } from '../reports/report.entity';
import { isRetryableFailure } from '../reports/report-status';
import { ReportsRepository } from '../reports/reports.repository';
import { TicketBackfillControl } from '../tickets/backfill/ticket-backfill-control';
import { TicketBackfillQueue } from '../tickets/backfill/ticket-backfill-queue.provider';
import { TICKET_BACKFILL_QUEUE } from '../tickets/backfill/ticket-backfill.job';
import { JobsError } from './jobs.errors';
import { JOB_STATES, JobStateName, jobView, JobView, stateName } from './job-view';

/** The report behind a job, so a job row explains itself (file, project, product, counts). */
export interface JobReport {
  report: ReportEntity;
  projectName: string;
  productName: string;
}

/** A failed job another attempt can help: its report's failure can go away (or is unknown). */
export function isRetryable(view: JobView, report: ReportEntity | undefined): boolean {
  // A backfill resumes after its cursor when it failed or was cancelled.
  if (view.queue === TICKET_BACKFILL_QUEUE) {
    return view.state === 'failed' || (view.state === 'completed' && view.outcome === 'cancelled');
  }
  if (view.state !== 'failed') return false;
  const code = report?.failureCode ?? null;
  return code === null || isRetryableFailure(code);
}

export interface JobFilter {
  state?: JobStateName;
  queue?: string;
  kind?: string;
  reportId?: string;
  limit: number;
  offset: number;
}

/** BullMQ list names behind each API state. */
const LIST_TYPES: Record<JobStateName, JobType[]> = {
  waiting: ['waiting', 'prioritized', 'waiting-children'],
  active: ['active'],
  delayed: ['delayed'],
  completed: ['completed'],
  failed: ['failed'],
};
/** Reports (= jobs) looked up per round trip when listing a project administrator's jobs. */
const PROJECT_PAGE = 200;
/** Ticket backfill jobs read per state (kept 7 / 30 days; one running per project). */
const BACKFILL_LIST_CAP = 1000;

/**
 * Background jobs of the ingestion queue. Global admins see every job (read from the queue's
 * lists); project admins see the jobs of their projects' reports (others get 404, as for a
 * missing job), found through the reports table (job id = report id), so their lists are exact
 * however many jobs other projects have.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly reportQueue: ReportQueue,
    private readonly reports: ReportsRepository,
    private readonly projectAccess: ProjectAccessService,
    private readonly backfillQueue: TicketBackfillQueue,
    private readonly backfills: TicketBackfillControl,
  ) {}

  async list(access: AccessContext, filter: JobFilter): Promise<JobView[]> {
    if (filter.queue === TICKET_BACKFILL_QUEUE) return this.listBackfills(access, filter);
    if (!this.matchesQueue(filter)) return [];
    const scope = await this.projectAccess.adminProjectIds(access);
    if (filter.reportId) {
      const one = await this.find(filter.reportId);
      const views = one && this.visible(scope, one) ? [one] : [];
      return views.filter((v) => !filter.state || v.state === filter.state);
    }
    if (scope !== 'all') {
      const wanted = filter.offset + filter.limit;
      const views: JobView[] = [];
      for await (const view of this.projectJobs(scope, filter.state)) {
        views.push(view);
        if (views.length >= wanted) break;
      }
      return views.slice(filter.offset);
    }
    const states = filter.state ? [filter.state] : [...JOB_STATES];
    const views: JobView[] = [];
    for (const state of states) {
      const end = filter.offset + filter.limit - 1;
      const jobs = await guardQueue(() =>
        this.reportQueue.queue.getJobs(LIST_TYPES[state], 0, end),
      );
      views.push(...jobs.map((job) => jobView(job, state)));
    }
    return views
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .slice(filter.offset, filter.offset + filter.limit);
  }

  async stats(access: AccessContext): Promise<Record<JobStateName, number>> {
    const scope = await this.projectAccess.adminProjectIds(access);
    const counts: Record<JobStateName, number> = {
      waiting: 0,
      active: 0,
      delayed: 0,
      completed: 0,
      failed: 0,
    };
    if (scope === 'all') {
      const raw = await guardQueue(() => this.reportQueue.queue.getJobCounts());
      for (const [type, count] of Object.entries(raw)) {
        const state = stateName(type as Parameters<typeof stateName>[0]);
        if (state) counts[state] += count;
      }
      return counts;
    }
    for await (const view of this.projectJobs(scope)) counts[view.state] += 1;
    return counts;
  }

  async get(access: AccessContext, id: string): Promise<JobView> {
    const view = await this.find(id);
    if (!view || !this.visible(await this.projectAccess.adminProjectIds(access), view)) {
      throw new JobsError('job_not_found');
    }
    return view;
  }

  /** The reports of the jobs (one lookup for the page), by report id. */
  async reportsOf(views: readonly JobView[]): Promise<Map<string, JobReport>> {
    const ids = [...new Set(views.flatMap((v) => (v.reportId ? [v.reportId] : [])))];
    const found = await this.reports.findWithNames(ids);
    return new Map(found.map((r) => [r.report.id, r]));
  }

  /**
   * A failed job runs again; it resumes after the batches already written. A report that can
   * never be read (a structure or format failure) is refused: upload a corrected file.
   */
  async retry(access: AccessContext, id: string): Promise<JobView> {
    const view = await this.get(access, id);
    if (view.queue === TICKET_BACKFILL_QUEUE) return this.retryBackfill(access, view);
    if (view.state !== 'failed') throw new JobsError('job_not_retryable', { state: view.state });
    const report = view.reportId ? await this.reports.findById(view.reportId) : null;
    if (!isRetryable(view, report ?? undefined)) {
      throw new JobsError('job_not_retryable', { failure_code: report?.failureCode ?? '' });
    }
    const job = await this.job(id);
    if (view.reportId) await this.reports.resetForRetry(view.reportId);
    await guardQueue(() => job.retry('failed'));
    return this.get(access, id);
  }

  /**
   * A queued job is removed and its report fails as cancelled; a running job gets the
   * cancellation flag, which the handler checks before writing each batch of results.
   */
  async cancel(access: AccessContext, id: string): Promise<JobView & { cancelRequested: boolean }> {
    const view = await this.get(access, id);
    if (view.queue === TICKET_BACKFILL_QUEUE) return this.cancelBackfill(access, view);
    if (view.state === 'completed' || view.state === 'failed') {
      throw new JobsError('job_not_cancellable', { state: view.state });
    }
    if (view.state !== 'active') {
      const job = await this.job(id);
      const removed = await guardQueue(() => job.remove().then(() => true)).catch(() => false);
      if (removed) {
        if (view.reportId) await this.reports.failPending(view.reportId, 'cancelled');
        return { ...view, cancelRequested: true };
      }
    }
    if (view.reportId) await this.reports.requestCancel(view.reportId, new Date());
    return { ...(await this.get(access, id)), cancelRequested: true };
  }

  /**
   * A failed or cancelled backfill runs again: its row is marked running (409 when the project
   * runs another) and the same job goes back to the queue; the walk resumes after the row's
   * cursor, so the findings it already walked are not walked again (the failed ones included:
   * a new backfill walks those).
   */
  private async retryBackfill(access: AccessContext, view: JobView): Promise<JobView> {
    if (!isRetryable(view, undefined)) {
      throw new JobsError('job_not_retryable', { queue: view.queue, state: view.state });
    }
    if (!(await this.backfills.resume(view.id))) {
      throw new JobsError('job_not_retryable', { queue: view.queue, state: view.state });
    }
    const job = await this.job(view.id);
    await guardQueue(() => job.retry(view.state === 'failed' ? 'failed' : 'completed'));
    return this.get(access, view.id);
  }

  /**
   * A queued or running backfill stops: its row becomes cancelled, which the walk checks before
   * each page; a job still queued starts, sees it and ends at once (retry resumes it).
   */
  private async cancelBackfill(
    access: AccessContext,
    view: JobView,
  ): Promise<JobView & { cancelRequested: boolean }> {
    if (
      view.state === 'completed' ||
      view.state === 'failed' ||
      !(await this.backfills.cancel(view.id))
    ) {
      throw new JobsError('job_not_cancellable', { queue: view.queue, state: view.state });
    }
    return { ...(await this.get(access, view.id)), cancelRequested: true };
  }

  /**
   * The still-queued jobs (finished ones are kept 7 / 30 days) of the projects' reports, newest
   * report first, optionally in one state.
   */
  private async *projectJobs(
    projectIds: readonly string[],
    state?: JobStateName,
  ): AsyncGenerator<JobView> {
    if (projectIds.length === 0) return;
    const retention = Math.max(
      INGEST_JOB_RETENTION_SECONDS.completed,
      INGEST_JOB_RETENTION_SECONDS.failed,
    );
    // Reports finished longer ago than the queue keeps jobs cannot have one (a minute's slack).
    const finishedSince = new Date(Date.now() - (retention + 60) * 1000);
    let before: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = await this.reports.newestInProjects(
        projectIds,
        finishedSince,
        before,
        PROJECT_PAGE,
      );
      const views = await Promise.all(page.map((report) => this.find(report.id)));
      for (const view of views) {
        if (view && (!state || view.state === state) && this.visible(projectIds, view)) yield view;
      }
      if (page.length < PROJECT_PAGE) return;
      before = page[page.length - 1];
    }
  }

  /**
   * The ticket backfills (queue ticket-backfill, job id = ticket_backfills.id): few per project,
   * read from the queue's lists and kept to the caller's administered projects.
   */
  private async listBackfills(access: AccessContext, filter: JobFilter): Promise<JobView[]> {
    if (filter.kind && filter.kind !== TICKET_BACKFILL_QUEUE) return [];
    if (filter.reportId) return [];
    const scope = await this.projectAccess.adminProjectIds(access);
    const views: JobView[] = [];
    for (const state of filter.state ? [filter.state] : [...JOB_STATES]) {
      const jobs = await guardQueue(() =>
        this.backfillQueue.queue.getJobs(LIST_TYPES[state], 0, BACKFILL_LIST_CAP - 1),
      );
      views.push(...jobs.map((job) => jobView(job, state)).filter((v) => this.visible(scope, v)));
    }
    return views
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
      .slice(filter.offset, filter.offset + filter.limit);
  }

  /** The queue a job id belongs to: `tbf-…` ticket backfills, else report ingestion. */
  private queueOf(id: string): ReportQueue | TicketBackfillQueue {
    return id.startsWith('tbf-') ? this.backfillQueue : this.reportQueue;
  }

  private matchesQueue(filter: JobFilter): boolean {
    if (filter.queue && filter.queue !== REPORT_INGESTION_QUEUE) return false;
    return !filter.kind || filter.kind === INGEST_REPORT.name;
  }

  private visible(scope: 'all' | readonly string[], view: JobView): boolean {
    return scope === 'all' || (view.projectId !== null && scope.includes(view.projectId));
  }

  private async job(id: string): Promise<Job> {
    const job = await guardQueue(() => this.queueOf(id).queue.getJob(id));
    if (!job) throw new JobsError('job_not_found');
    return job;
  }

  private async find(id: string): Promise<JobView | undefined> {
    const job = await guardQueue(() => this.queueOf(id).queue.getJob(id));
    if (!job) return undefined;
    const state = stateName(await guardQueue(() => job.getState()));
    return state ? jobView(job, state) : undefined;
  }
}
