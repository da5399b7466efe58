import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../action-log/finding-action';
import { suppressChunkSql } from '../findings/suppression/finding-suppression.sql';
import type { RulePredicate } from './suppression-query';
import type { RuleRunState } from './suppression-rule.entity';
import { returned, SuppressionRulesRepository } from './suppression-rules.repository';

/**
 * A rule's runs over the accumulated findings (the run columns of `suppression_rules`, owned
 * by this module with the rules): start, heartbeat and resume point, the chunks, the end, and
 * the sweep of runs that died (docs/findings-service/suppression.md#a-run-that-died).
 */
@Injectable()
export class SuppressionRunsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rules: SuppressionRulesRepository,
  ) {}

  /** Marks a run started unless one is running; false when one is. */
  async startRun(ruleId: string, jobId: string, manager?: EntityManager): Promise<boolean> {
    const rows = (await (manager ?? this.dataSource.manager).query(
      `UPDATE suppression_rules SET run_job_id = $2, run_state = 'running', run_total = 0,
         run_done = 0, run_matched = 0, run_started_at = now(), run_finished_at = NULL,
         run_heartbeat_at = now(), run_after_id = NULL
       WHERE id = $1 AND run_state IS DISTINCT FROM 'running' RETURNING id`,
      [ruleId, jobId],
    )) as unknown;
    return returned(rows).length > 0;
  }

  /**
   * Whether run `jobId` of the rule is still `running` and showed no life (start, a chunk) for
   * `staleSeconds` (docs/findings-service/suppression.md#a-run-that-died).
   */
  async runHeartbeatStale(ruleId: string, jobId: string, staleSeconds: number): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT COALESCE(run_heartbeat_at, run_started_at, 'epoch'::timestamptz)
                < now() - make_interval(secs => $3) AS stale
         FROM suppression_rules WHERE id = $1 AND run_job_id = $2 AND run_state = 'running'`,
      [ruleId, jobId, staleSeconds],
    )) as { stale: boolean }[];
    return rows[0]?.stale === true;
  }

  /**
   * Marks every run that showed no life for `staleSeconds` `failed`, each with a `run_failed`
   * entry (cause `stale`) by the system, in one statement; the number marked. A job that comes
   * back to life afterwards stops at its next chunk (the run is no longer its own).
   */
  async failStaleRuns(staleSeconds: number, label: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `WITH dead AS (
         UPDATE suppression_rules SET run_state = 'failed', run_finished_at = now()
          WHERE run_state = 'running'
            AND COALESCE(run_heartbeat_at, run_started_at, 'epoch'::timestamptz)
                < now() - make_interval(secs => $1)
         RETURNING id, project_id, run_job_id, run_done
       ), logged AS (
         INSERT INTO suppression_rule_actions
           (rule_id, project_id, actor_type, actor_id, actor_label, action, to_value)
         SELECT id, project_id, 'system', NULL, $2, 'run_failed',
                jsonb_build_object('job_id', run_job_id, 'cause', 'stale', 'done', run_done)
           FROM dead
         RETURNING 1
       )
       SELECT count(*)::int AS failed FROM logged`,
      [staleSeconds, label],
    )) as { failed: number }[];
    return rows[0]?.failed ?? 0;
  }

  /**
   * Where run `jobId` is: its committed progress and the last finding id it committed (null:
   * no chunk yet). Undefined when the rule's run is no longer this one or no longer running.
   * A job that starts (or is retried) with no chunk committed counts the project's findings
   * (`total`); a retried one resumes after `afterId` with the counts committed so far.
   */
  async resumeRun(
    ruleId: string,
    jobId: string,
    countTotal: () => Promise<number>,
  ): Promise<{ total: number; done: number; matched: number; afterId: string | null } | undefined> {
    const rows = (await this.dataSource.query(
      `UPDATE suppression_rules SET run_heartbeat_at = now()
        WHERE id = $1 AND run_job_id = $2 AND run_state = 'running'
        RETURNING run_total, run_done, run_matched, run_after_id::text`,
      [ruleId, jobId],
    )) as unknown;
    const row = returned(rows)[0];
    if (!row) return undefined;
    const afterId = (row['run_after_id'] as string | null) ?? null;
    if (afterId !== null) {
      return {
        total: Number(row['run_total']),
        done: Number(row['run_done']),
        matched: Number(row['run_matched']),
        afterId,
      };
    }
    const total = await countTotal();
    await this.dataSource.query(
      `UPDATE suppression_rules SET run_total = $3, run_done = 0, run_matched = 0
        WHERE id = $1 AND run_job_id = $2 AND run_after_id IS NULL`,
      [ruleId, jobId, total],
    );
    return { total, done: 0, matched: 0, afterId: null };
  }

  async finishRun(
    ruleId: string,
    jobId: string,
    state: RuleRunState,
    manager?: EntityManager,
  ): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `UPDATE suppression_rules SET run_state = $3, run_finished_at = now()
        WHERE id = $1 AND run_job_id = $2 AND run_state = 'running'`,
      [ruleId, jobId, state],
    );
  }

  /** The project's findings (a run's total, for its progress). */
  async projectFindings(projectId: string): Promise<number> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS n FROM findings WHERE project_id = $1`,
      [projectId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  /**
   * One chunk of a run, in its own transaction with the rule locked (an edit or a delete waits
   * for the chunk, and a chunk after them sees them): undefined when the rule is gone, disabled,
   * changed, or its run is no longer this one (the run stops).
   */
  async runChunk(input: {
    projectId: string;
    ruleId: string;
    jobId: string;
    query: string;
    after: string;
    size: number;
    actor: Actor;
    predicate: RulePredicate;
  }): Promise<{ lastId: string | null; walked: number; matched: number } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const rule = await this.rules.get(input.projectId, input.ruleId, manager);
      if (!rule || !rule.enabled || rule.query !== input.query) return undefined;
      if (rule.lastRun?.jobId !== input.jobId || rule.lastRun.state !== 'running') return undefined;
      const rows = (await manager.query(suppressChunkSql(input.predicate.sql), [
        input.projectId,
        input.after,
        input.size,
        input.ruleId,
        input.actor.type,
        input.actor.id,
        input.actor.label,
        ...input.predicate.params,
      ])) as { last_id: string | null; walked: number; matched: number }[];
      const row = rows[0] ?? { last_id: null, walked: 0, matched: 0 };
      // The progress and the resume point commit with the chunk: a retried job resumes after
      // `run_after_id` and never counts a chunk twice.
      await manager.query(
        `UPDATE suppression_rules SET run_done = run_done + $3, run_matched = run_matched + $4,
           run_after_id = COALESCE($5::uuid, run_after_id), run_heartbeat_at = now()
          WHERE id = $1 AND run_job_id = $2`,
        [input.ruleId, input.jobId, row.walked, row.matched, row.last_id],
      );
      return { lastId: row.last_id, walked: row.walked, matched: row.matched };
    });
  }
}
