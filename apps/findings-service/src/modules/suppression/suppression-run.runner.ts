import { Injectable } from '@nestjs/common';
import { storedPredicate } from './suppression-query';
import {
  SUPPRESSION_RUN_CHUNK,
  SUPPRESSION_RUN_CHUNK_MS,
  SUPPRESSION_RUN_MAX_CHUNK,
  type SuppressionRunJob,
} from './suppression-run.job';
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
 * matches).
 */
@Injectable()
export class SuppressionRunRunner {
  constructor(private readonly runs: SuppressionRunsRepository) {}

  async run(
    job: SuppressionRunJob,
    report: (progress: RunProgress) => Promise<void>,
    nextSize: (size: number, ms: number) => number = nextChunkSize,
  ): Promise<RunResult> {
    const predicate = storedPredicate(job.query, 7);
    const resumed = await this.runs.resumeRun(job.ruleId, job.jobId, () =>
      this.runs.projectFindings(job.projectId),
    );
    if (!resumed) return { state: 'stopped', total: 0, done: 0, matched: 0 };
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
      if (!chunk) {
        await this.runs.finishRun(job.ruleId, job.jobId, 'stopped');
        return { state: 'stopped', ...progress };
      }
      progress.done += chunk.walked;
      progress.matched += chunk.matched;
      await report(progress);
      if (chunk.lastId === null || chunk.walked < size) break;
      after = chunk.lastId;
      size = nextSize(size, performance.now() - started);
    }
    await this.runs.finishRun(job.ruleId, job.jobId, 'completed');
    return { state: 'completed', ...progress };
  }
}
