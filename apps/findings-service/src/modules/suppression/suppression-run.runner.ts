import { Injectable } from '@nestjs/common';
import { systemActor } from '../action-log/finding-action';
import { storedPredicate } from './suppression-query';
import {
  SUPPRESSION_RUN_CHUNK,
  SUPPRESSION_RUN_CHUNK_MS,
  SUPPRESSION_RUN_MAX_CHUNK,
  type SuppressionRunJob,
} from './suppression-run.job';
import { SuppressionRulesRepository } from './suppression-rules.repository';
import { SuppressionRunsRepository } from './suppression-runs.repository';

export interface RunProgress {
  total: number;
  done: number;
  matched: number;
}

export interface RunResult extends RunProgress {
  state: 'completed' | 'stopped';
}

const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/** The next chunk's size after one of `size` findings that took `ms` (SUPPRESSION_RUN_MAX_CHUNK). */
export function nextChunkSize(size: number, ms: number): number {
  if (ms < SUPPRESSION_RUN_CHUNK_MS / 2) return Math.min(SUPPRESSION_RUN_MAX_CHUNK, size * 2);
  if (ms > SUPPRESSION_RUN_CHUNK_MS * 2)
    return Math.max(SUPPRESSION_RUN_CHUNK, Math.floor(size / 2));
  return size;
}

/**
 * A rule's run over the project's accumulated findings: walks them by id in chunks of
 * nextChunkSize (SUPPRESSION_RUN_CHUNK to SUPPRESSION_RUN_MAX_CHUNK, both 5 000 now), each one
 * set-based UPDATE (finding-suppression.sql.ts) in its own transaction; the rule's row (progress, the last committed id, the heartbeat) commits with each
 * chunk, and the job's progress follows. A retried job (a stalled or restarted worker) resumes
 * after the last committed id with the counts committed so far, so nothing is counted twice.
 * The run stops when the rule is deleted, disabled or changed meanwhile, or when another run
 * replaced it (the last chunk written stays: an edit that narrowed it released what no longer
 * matches). The run's end and its `run_completed` / `run_stopped` entry commit together: the
 * rule never reads as finished without the entry, and a failed entry leaves the run running
 * for the caller to mark failed.
 */
@Injectable()
export class SuppressionRunRunner {
  constructor(
    private readonly runs: SuppressionRunsRepository,
    private readonly rules: SuppressionRulesRepository,
  ) {}

  async run(
    job: SuppressionRunJob,
    report: (progress: RunProgress) => Promise<void>,
    nextSize: (size: number, ms: number) => number = nextChunkSize,
  ): Promise<RunResult> {
    const predicate = storedPredicate(job.query, 7);
    const resumed = await this.runs.resumeRun(job.ruleId, job.jobId, () =>
      this.runs.projectFindings(job.projectId),
    );
    if (!resumed) return this.end(job, { state: 'stopped', total: 0, done: 0, matched: 0 });
    const progress: RunProgress = {
      total: resumed.total,
      done: resumed.done,
      matched: resumed.matched,
    };
    await report(progress);
    let after = resumed.afterId ?? FIRST_ID;
    let size = SUPPRESSION_RUN_CHUNK;
    for (;;) {
      const started = performance.now();
      const chunk = await this.runs.runChunk({
        projectId: job.projectId,
        ruleId: job.ruleId,
        jobId: job.jobId,
        query: job.query,
        after,
        size,
        actor: job.actor,
        predicate,
      });
      if (!chunk) return this.end(job, { state: 'stopped', ...progress });
      progress.done += chunk.walked;
      progress.matched += chunk.matched;
      await report(progress);
      if (chunk.lastId === null || chunk.walked < size) break;
      after = chunk.lastId;
      size = nextSize(size, performance.now() - started);
    }
    return this.end(job, { state: 'completed', ...progress });
  }

  /** Ends the run (if it is still this job's) and logs how, in one transaction. */
  private async end(job: SuppressionRunJob, result: RunResult): Promise<RunResult> {
    await this.rules.transaction(async (manager) => {
      await this.runs.finishRun(job.ruleId, job.jobId, result.state, manager);
      await this.rules.log(manager, {
        ruleId: job.ruleId,
        projectId: job.projectId,
        actor: systemActor('suppression-run'),
        action: result.state === 'completed' ? 'run_completed' : 'run_stopped',
        to: { job_id: job.jobId, total: result.total, done: result.done, matched: result.matched },
      });
    });
    return result;
  }
}
