import { Inject, Injectable, Logger } from '@nestjs/common';
import { addJob } from '@platform/queue';
import { Clock } from '../../app/clock';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { AutoClosureService } from './auto-closure.service';
import { ClosureCheckRepository, type CheckedReport } from './closure-check.repository';
import { AutoClosureQueue } from './jobs/auto-closure-queue.provider';
import {
  AUTO_CLOSURE_JOB_RETENTION_SECONDS,
  CLOSURE_CHECK,
  closureCheckJobId,
  type ClosureCheckJob,
} from './jobs/closure-check.job';
import { VerificationRequester } from './verification-requester.service';

/** Attempts of one check job when the database fails transiently. */
export const CLOSURE_CHECK_JOB_ATTEMPTS = 3;

export type AttemptOutcome = 'skipped' | 'next' | 'finished';

/**
 * The closure check of one report (docs/findings-service/auto-closure.md): queued when a report
 * that asked for it (`verify_fixes`) completes, in a project that allows it, with the global
 * switch on. Each attempt is a job; attempts are AUTO_CLOSE_ATTEMPT_INTERVAL_MS apart, and the
 * last one turns the verdicts into counters, asks the scanner to re-verify findings that reached
 * the required checks, and closes what is eligible.
 */
@Injectable()
export class ClosureCheckService {
  private readonly logger = new Logger('ClosureCheck');

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly checks: ClosureCheckRepository,
    private readonly queue: AutoClosureQueue,
    private readonly autoClosure: AutoClosureService,
    private readonly requester: VerificationRequester,
    private readonly clock: Clock,
  ) {}

  /** After ingestion completed a report: its check is queued, or recorded as skipped (why). */
  async reportCompleted(reportId: string): Promise<void> {
    const report = await this.checks.loadReport(reportId);
    if (!report || report.status !== 'completed' || !report.verifyFixes) return;
    const off = this.switchOff(report);
    if (off) {
      await this.checks.skip(report, off, this.clock.now());
      return;
    }
    await this.enqueue({ reportId, attempt: 1 }, 0);
  }

  async runAttempt(job: ClosureCheckJob): Promise<AttemptOutcome> {
    const report = await this.checks.loadReport(job.reportId);
    if (!report || report.status !== 'completed') return 'skipped';
    const now = this.clock.now();
    if (job.attempt === 1) {
      const off = this.switchOff(report);
      if (off) {
        await this.checks.skip(report, off, now);
        return 'skipped';
      }
      await this.checks.start(report, now);
    }
    const check = await this.checks.findCheck(report.reportId);
    const rules = this.config.autoClosure;
    // Counted but not finished: the job died between the counters and the closures.
    if (check?.state === 'completed' && !check.finishedAt && job.attempt === rules.attempts) {
      await this.afterCounting(report);
      return 'finished';
    }
    if (!check || check.state !== 'running') return 'skipped';
    // A retried job whose attempt already ran only makes sure the next one is queued.
    if (check.attemptsDone < job.attempt) await this.checks.attempt(report, check.startedAt);
    if (job.attempt < rules.attempts) {
      await this.enqueue(
        { reportId: job.reportId, attempt: job.attempt + 1 },
        rules.attemptIntervalMs,
      );
      return 'next';
    }
    return this.finish(report);
  }

  private async finish(report: CheckedReport): Promise<AttemptOutcome> {
    const rules = this.config.autoClosure;
    const counts = await this.checks.finish(report, rules.consecutiveChecks, this.clock.now());
    if (!counts) return 'skipped';
    const closed = await this.afterCounting(report);
    this.logger.log(
      `report ${report.reportId}: closure check absent ${counts.absent}, present ${counts.present}, undetermined ${counts.undetermined}, reached ${counts.reached}, closed ${closed}`,
    );
    return 'finished';
  }

  /** Asks the scanner about findings that reached the checks, then closes what is eligible. */
  private async afterCounting(report: CheckedReport): Promise<number> {
    await this.requester.requestAutomatic(report.projectId);
    const outcome = await this.autoClosure.closeEligible(report.projectId);
    await this.checks.markFinished(report.reportId, outcome.closed.length, this.clock.now());
    return outcome.closed.length;
  }

  /** Which of the switches is off (the upload's `verify_fixes` is checked by the caller). */
  private switchOff(report: CheckedReport): string | undefined {
    if (!this.config.autoClosure.enabled) return 'feature_off';
    if (!report.projectAutoVerify) return 'project_off';
    return undefined;
  }

  private async enqueue(data: ClosureCheckJob, delayMs: number): Promise<void> {
    await addJob(this.queue.queue, CLOSURE_CHECK, data, {
      jobId: closureCheckJobId(data.reportId, data.attempt),
      delay: delayMs,
      attempts: CLOSURE_CHECK_JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: { age: AUTO_CLOSURE_JOB_RETENTION_SECONDS.completed },
      removeOnFail: { age: AUTO_CLOSURE_JOB_RETENTION_SECONDS.failed },
    });
  }
}
