import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { addJob } from '@platform/queue';
import type { AccessContext } from '../../app/access/access-context';
import { actorOf } from '../action-log/finding-action';
import { ProjectsError } from '../projects/projects.errors';
import { VisibilityService } from '../projects/visibility.service';
import { storedPredicate, validateRuleQuery } from './suppression-query';
import { SuppressionError } from './suppression.errors';
import {
  type RuleFields,
  type SuppressionRule,
  type SuppressionRuleAction,
  SuppressionRulesRepository,
} from './suppression-rules.repository';
import {
  SUPPRESSION_RUN,
  SUPPRESSION_RUN_LIVE_STATES,
  SUPPRESSION_RUN_STALE_SECONDS,
} from './suppression-run.job';
import { SuppressionRunQueue } from './suppression-run-queue.provider';
import { SuppressionRunsRepository } from './suppression-runs.repository';

/** Rules per project: the ingestion statement carries all enabled ones. */
export const MAX_RULES_PER_PROJECT = 100;

export interface RuleInput {
  name?: string;
  query?: string;
  reason?: string | null;
  enabled?: boolean;
}

/**
 * Suppression rules of a project (docs/findings-service/suppression.md): reading needs
 * membership (a grant covering the project; else 404), every change needs `write_findings` on
 * the project (analyst and up; suppressing is triage). Each change is one transaction with its
 * rule-log entry and, where findings are released, their `unsuppressed` entries.
 */
@Injectable()
export class SuppressionRulesService {
  constructor(
    private readonly rules: SuppressionRulesRepository,
    private readonly runs: SuppressionRunsRepository,
    private readonly visibility: VisibilityService,
    private readonly queue: SuppressionRunQueue,
  ) {}

  private async member(access: AccessContext, projectId: string): Promise<void> {
    if (
      !this.visibility.canSee(access, { projectId }) ||
      !(await this.rules.projectExists(projectId))
    ) {
      throw new ProjectsError('project_not_found');
    }
  }

  private async writer(access: AccessContext, projectId: string): Promise<void> {
    await this.member(access, projectId);
    if (!access.can('write_findings', { projectId })) throw new ProjectsError('access_denied');
  }

  async list(access: AccessContext, projectId: string): Promise<SuppressionRule[]> {
    await this.member(access, projectId);
    return this.rules.list(projectId);
  }

  /** A page of the rule's log, oldest first (kept, and readable, after the rule is deleted). */
  async history(
    access: AccessContext,
    projectId: string,
    ruleId: string,
    page: { limit: number; after?: string },
  ): Promise<SuppressionRuleAction[]> {
    await this.member(access, projectId);
    const entries = await this.rules.history(projectId, ruleId, page);
    if (!entries) throw new SuppressionError('suppression_rule_not_found');
    return entries;
  }

  /** The rule checked and how many findings it matches now; nothing is stored. */
  async preview(
    access: AccessContext,
    projectId: string,
    query: string,
  ): Promise<{ query: string; matched: number; alreadySuppressed: number }> {
    await this.writer(access, projectId);
    const counts = await this.rules.preview(projectId, storedPredicate(query, 1));
    return { query, matched: counts.matched, alreadySuppressed: counts.suppressed };
  }

  async create(
    access: AccessContext,
    projectId: string,
    input: Required<Pick<RuleInput, 'name' | 'query'>> & RuleInput,
  ): Promise<SuppressionRule> {
    await this.writer(access, projectId);
    validateRuleQuery(input.query);
    const id = randomUUID();
    const fields: RuleFields = {
      name: input.name,
      query: input.query,
      reason: input.reason ?? null,
      enabled: input.enabled ?? true,
    };
    const actor = actorOf(access);
    await this.rules.transaction(async (manager) => {
      const count = await this.rules.count(projectId, manager);
      if (count >= MAX_RULES_PER_PROJECT) {
        throw new SuppressionError('suppression_rules_limit', { limit: MAX_RULES_PER_PROJECT });
      }
      await this.rules.insert(manager, id, projectId, fields, actor.id);
      await this.rules.log(manager, {
        ruleId: id,
        projectId,
        actor,
        action: 'created',
        to: { ...fields },
      });
    });
    return this.found(projectId, id);
  }

  /**
   * Changes the fields given. Disabling releases every finding the rule suppressed; a new text
   * releases those it no longer matches (new matches only on the next run).
   */
  async update(
    access: AccessContext,
    projectId: string,
    ruleId: string,
    input: RuleInput,
  ): Promise<SuppressionRule> {
    await this.writer(access, projectId);
    if (input.query !== undefined) validateRuleQuery(input.query);
    const actor = actorOf(access);
    await this.rules.transaction(async (manager) => {
      const rule = await this.rules.get(projectId, ruleId, manager);
      if (!rule) throw new SuppressionError('suppression_rule_not_found');
      const before: RuleFields = {
        name: rule.name,
        query: rule.query,
        reason: rule.reason,
        enabled: rule.enabled,
      };
      const after: RuleFields = {
        name: input.name ?? before.name,
        query: input.query ?? before.query,
        reason: input.reason === undefined ? before.reason : input.reason,
        enabled: input.enabled ?? before.enabled,
      };
      await this.rules.update(manager, ruleId, after);
      let released = 0;
      if (before.enabled && !after.enabled) {
        released = await this.rules.release(manager, projectId, ruleId, actor, 'rule_disabled');
      } else if (after.query !== before.query) {
        const still = storedPredicate(after.query, 6);
        released = await this.rules.release(
          manager,
          projectId,
          ruleId,
          actor,
          'rule_changed',
          still,
        );
      }
      const action =
        before.enabled !== after.enabled ? (after.enabled ? 'enabled' : 'disabled') : 'updated';
      await this.rules.log(manager, {
        ruleId,
        projectId,
        actor,
        action,
        from: { ...before },
        to: { ...after, released },
      });
    });
    return this.found(projectId, ruleId);
  }

  /** Deletes the rule and releases every finding it suppressed. */
  async delete(access: AccessContext, projectId: string, ruleId: string): Promise<void> {
    await this.writer(access, projectId);
    const actor = actorOf(access);
    await this.rules.transaction(async (manager) => {
      const rule = await this.rules.get(projectId, ruleId, manager);
      if (!rule) throw new SuppressionError('suppression_rule_not_found');
      const released = await this.rules.release(manager, projectId, ruleId, actor, 'rule_deleted');
      await this.rules.delete(manager, ruleId);
      await this.rules.log(manager, {
        ruleId,
        projectId,
        actor,
        action: 'deleted',
        from: { name: rule.name, query: rule.query, reason: rule.reason, enabled: rule.enabled },
        to: { released },
      });
    });
  }

  /**
   * Starts a run over the accumulated findings (202): one at a time per rule (409), unless the
   * running one is dead (its queue job gone, completed or failed, or no heartbeat for
   * SUPPRESSION_RUN_STALE_SECONDS): it is marked `failed` and the new run replaces it.
   */
  async run(access: AccessContext, projectId: string, ruleId: string): Promise<SuppressionRule> {
    await this.writer(access, projectId);
    const rule = await this.rules.get(projectId, ruleId);
    if (!rule) throw new SuppressionError('suppression_rule_not_found');
    if (!rule.enabled) throw new SuppressionError('suppression_rule_disabled');
    const actor = actorOf(access);
    const stale = rule.lastRun?.state === 'running' ? rule.lastRun : undefined;
    const cause = stale && (await this.deadRun(ruleId, stale.jobId));
    if (stale && !cause) throw new SuppressionError('suppression_rule_running');
    const jobId = `sup-${randomUUID()}`;
    // Replacing a dead run, marking the new one started and its `run_started` entry commit
    // together, before the job is queued (the worker logs `run_completed` after it).
    await this.rules.transaction(async (manager) => {
      const locked = await this.rules.get(projectId, ruleId, manager);
      if (!locked) throw new SuppressionError('suppression_rule_not_found');
      if (stale && locked.lastRun?.jobId === stale.jobId && locked.lastRun.state === 'running') {
        await this.runs.finishRun(ruleId, stale.jobId, 'failed', manager);
        await this.rules.log(manager, {
          ruleId,
          projectId,
          actor,
          action: 'run_failed',
          to: { job_id: stale.jobId, cause, done: locked.lastRun.done },
        });
      }
      if (!(await this.runs.startRun(ruleId, jobId, manager))) {
        throw new SuppressionError('suppression_rule_running');
      }
      await this.rules.log(manager, {
        ruleId,
        projectId,
        actor,
        action: 'run_started',
        to: { job_id: jobId, query: rule.query },
      });
    });
    try {
      await addJob(
        this.queue.queue,
        SUPPRESSION_RUN,
        { jobId, projectId, ruleId, query: rule.query, actor },
        {
          jobId,
          attempts: 1,
          removeOnComplete: { age: 7 * 24 * 3600 },
          removeOnFail: { age: 30 * 24 * 3600 },
        },
      );
    } catch (error) {
      await this.rules.transaction(async (manager) => {
        await this.runs.finishRun(ruleId, jobId, 'failed', manager);
        await this.rules.log(manager, {
          ruleId,
          projectId,
          actor,
          action: 'run_failed',
          to: { job_id: jobId, cause: 'queue_unavailable' },
        });
      });
      throw error;
    }
    return this.found(projectId, ruleId);
  }

  /**
   * Why a `running` run is dead, or undefined while it may still progress: its queue job is
   * no longer waiting or active (`job_gone`: the worker died past BullMQ's stalled retries, or
   * the job was removed), or it showed no life for SUPPRESSION_RUN_STALE_SECONDS (`stale`: a
   * hung worker). Redis unreachable: the heartbeat alone decides (the new job could not be
   * queued anyway and answers 503).
   */
  private async deadRun(ruleId: string, jobId: string): Promise<string | undefined> {
    let state: string | undefined;
    try {
      state = await this.queue.queue.getJobState(jobId);
    } catch {
      state = undefined;
    }
    if (state !== undefined && !SUPPRESSION_RUN_LIVE_STATES.includes(state)) return 'job_gone';
    if (await this.runs.runHeartbeatStale(ruleId, jobId, SUPPRESSION_RUN_STALE_SECONDS)) {
      return 'stale';
    }
    return undefined;
  }

  private async found(projectId: string, ruleId: string): Promise<SuppressionRule> {
    const rule = await this.rules.get(projectId, ruleId);
    if (!rule) throw new SuppressionError('suppression_rule_not_found');
    return rule;
  }
}
