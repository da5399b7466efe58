import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Actor } from '../action-log/finding-action';
import { releaseSql } from '../findings/suppression/finding-suppression.sql';
import type { RulePredicate } from './suppression-query';
import type { RuleRunState } from './suppression-rule.entity';

/** A rule as the API shows it (suppression-rule.dto.ts). */
export interface SuppressionRule {
  id: string;
  projectId: string;
  name: string;
  query: string;
  reason: string | null;
  enabled: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Findings the rule suppresses now. */
  suppressedFindings: number;
  lastRun: {
    jobId: string;
    state: RuleRunState;
    total: number;
    done: number;
    matched: number;
    startedAt: Date | null;
    finishedAt: Date | null;
  } | null;
}

export interface RuleFields {
  name: string;
  query: string;
  reason: string | null;
  enabled: boolean;
}

const OWN_COLUMNS = `r.id::text, r.project_id::text, r.name, r.query, r.reason, r.enabled,
  r.created_by::text, r.created_at, r.updated_at, r.run_job_id, r.run_state, r.run_total,
  r.run_done, r.run_matched, r.run_started_at, r.run_finished_at`;

/** With the count of findings the rule suppresses now (partial index on suppression_rule_id). */
const COLUMNS = `${OWN_COLUMNS},
  (SELECT count(*) FROM findings f WHERE f.suppression_rule_id = r.id)::int AS suppressed`;

/**
 * The rows of an `UPDATE ... RETURNING`: TypeORM's postgres driver answers `[rows, rowCount]`
 * for UPDATE and DELETE (so `.length` of the raw answer is always 2), rows for anything else.
 */
export function returned(raw: unknown): Record<string, unknown>[] {
  const answer = raw as unknown[];
  if (answer.length === 2 && Array.isArray(answer[0]) && typeof answer[1] === 'number') {
    return answer[0] as Record<string, unknown>[];
  }
  return answer as Record<string, unknown>[];
}

function ruleOf(r: Record<string, unknown>): SuppressionRule {
  const jobId = r['run_job_id'] as string | null;
  return {
    id: String(r['id']),
    projectId: String(r['project_id']),
    name: String(r['name']),
    query: String(r['query']),
    reason: (r['reason'] as string | null) ?? null,
    enabled: r['enabled'] === true,
    createdBy: (r['created_by'] as string | null) ?? null,
    createdAt: r['created_at'] as Date,
    updatedAt: r['updated_at'] as Date,
    suppressedFindings: Number(r['suppressed'] ?? 0),
    lastRun:
      jobId === null
        ? null
        : {
            jobId,
            state: r['run_state'] as RuleRunState,
            total: Number(r['run_total']),
            done: Number(r['run_done']),
            matched: Number(r['run_matched']),
            startedAt: (r['run_started_at'] as Date | null) ?? null,
            finishedAt: (r['run_finished_at'] as Date | null) ?? null,
          },
  };
}

/** An entry of a rule's log (`suppression_rule_actions`). */
export interface SuppressionRuleAction {
  id: string;
  ruleId: string;
  actor: { type: string; id: string | null; label: string | null };
  action: string;
  from: Record<string, unknown> | null;
  to: Record<string, unknown> | null;
  at: Date;
}

/**
 * The only writer of `suppression_rules` and `suppression_rule_actions`; findings change only
 * through the statements the findings module exports (finding-suppression.sql.ts), in the
 * caller's transaction.
 */
@Injectable()
export class SuppressionRulesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async projectExists(projectId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT 1 FROM projects WHERE id = $1`, [
      projectId,
    ])) as unknown[];
    return rows.length > 0;
  }

  async list(projectId: string): Promise<SuppressionRule[]> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM suppression_rules r WHERE r.project_id = $1
        ORDER BY r.created_at, r.id`,
      [projectId],
    )) as Record<string, unknown>[];
    return rows.map(ruleOf);
  }

  /**
   * The rule; locked FOR UPDATE, without its count of suppressed findings (0), when a manager
   * is given (edits, deletes, a run's chunk).
   */
  async get(
    projectId: string,
    ruleId: string,
    manager?: EntityManager,
  ): Promise<SuppressionRule | undefined> {
    const select = manager
      ? `${OWN_COLUMNS} FROM suppression_rules r`
      : `${COLUMNS} FROM suppression_rules r`;
    const lock = manager ? ' FOR UPDATE OF r' : '';
    const rows = (await (manager ?? this.dataSource.manager).query(
      `SELECT ${select} WHERE r.id = $1 AND r.project_id = $2${lock}`,
      [ruleId, projectId],
    )) as Record<string, unknown>[];
    return rows[0] ? ruleOf(rows[0]) : undefined;
  }

  /** The project's rules, counted under a lock on the project row (one create at a time). */
  async count(projectId: string, manager: EntityManager): Promise<number> {
    await manager.query(`SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE`, [projectId]);
    const rows = (await manager.query(
      `SELECT count(*)::int AS n FROM suppression_rules WHERE project_id = $1`,
      [projectId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }

  /** Enabled rules, oldest first (the first one that matches a new finding suppresses it). */
  async enabled(projectId: string): Promise<{ id: string; query: string }[]> {
    return (await this.dataSource.query(
      `SELECT id::text, query FROM suppression_rules WHERE project_id = $1 AND enabled
        ORDER BY created_at, id`,
      [projectId],
    )) as { id: string; query: string }[];
  }

  async insert(
    manager: EntityManager,
    id: string,
    projectId: string,
    fields: RuleFields,
    createdBy: string | null,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO suppression_rules (id, project_id, name, query, reason, enabled, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, projectId, fields.name, fields.query, fields.reason, fields.enabled, createdBy],
    );
  }

  async update(manager: EntityManager, id: string, fields: RuleFields): Promise<void> {
    await manager.query(
      `UPDATE suppression_rules SET name = $2, query = $3, reason = $4, enabled = $5,
        updated_at = now() WHERE id = $1`,
      [id, fields.name, fields.query, fields.reason, fields.enabled],
    );
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`DELETE FROM suppression_rules WHERE id = $1`, [id]);
  }

  async log(
    manager: EntityManager,
    entry: {
      ruleId: string;
      projectId: string;
      actor: Actor;
      action: string;
      from?: Record<string, unknown> | null;
      to?: Record<string, unknown> | null;
    },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO suppression_rule_actions
        (rule_id, project_id, actor_type, actor_id, actor_label, action, from_value, to_value)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)`,
      [
        entry.ruleId,
        entry.projectId,
        entry.actor.type,
        entry.actor.id,
        entry.actor.label,
        entry.action,
        entry.from ? JSON.stringify(entry.from) : null,
        entry.to ? JSON.stringify(entry.to) : null,
      ],
    );
  }

  /**
   * A page of a rule's log, oldest first, after entry `after`: the entries of a deleted rule
   * are kept and still read. Undefined when the project has neither the rule nor any entry of
   * it (the route's 404).
   */
  async history(
    projectId: string,
    ruleId: string,
    page: { limit: number; after?: string },
  ): Promise<SuppressionRuleAction[] | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT id::text, action, actor_type, actor_id, actor_label, from_value, to_value, at
         FROM suppression_rule_actions
        WHERE rule_id = $1 AND project_id = $2 AND id > $3::bigint
        ORDER BY id LIMIT $4`,
      [ruleId, projectId, page.after ?? '0', page.limit],
    )) as Record<string, unknown>[];
    if (rows.length === 0 && !(await this.known(projectId, ruleId))) return undefined;
    return rows.map((r) => ({
      id: String(r['id']),
      ruleId,
      actor: {
        type: String(r['actor_type']),
        id: (r['actor_id'] as string | null) ?? null,
        label: (r['actor_label'] as string | null) ?? null,
      },
      action: String(r['action']),
      from: (r['from_value'] as Record<string, unknown> | null) ?? null,
      to: (r['to_value'] as Record<string, unknown> | null) ?? null,
      at: r['at'] as Date,
    }));
  }

  private async known(projectId: string, ruleId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM suppression_rules WHERE id = $1 AND project_id = $2)
           OR EXISTS (SELECT 1 FROM suppression_rule_actions WHERE rule_id = $1 AND project_id = $2)
           AS known`,
      [ruleId, projectId],
    )) as { known: boolean }[];
    return rows[0]?.known === true;
  }

  /** The rule's log, newest first (tests and support). */
  async actions(ruleId: string): Promise<{ action: string; to_value: unknown }[]> {
    return (await this.dataSource.query(
      `SELECT action, to_value FROM suppression_rule_actions WHERE rule_id = $1 ORDER BY id DESC`,
      [ruleId],
    )) as { action: string; to_value: unknown }[];
  }

  /**
   * Releases the rule's findings: all (`still` undefined) or those `still` no longer matches.
   */
  async release(
    manager: EntityManager,
    projectId: string,
    ruleId: string,
    actor: Actor,
    cause: string,
    still?: RulePredicate,
  ): Promise<number> {
    const rows = (await manager.query(releaseSql(still?.sql), [
      projectId,
      ruleId,
      actor.type,
      actor.id,
      actor.label,
      cause,
      ...(still?.params ?? []),
    ])) as { released: number }[];
    return rows[0]?.released ?? 0;
  }

  /**
   * How many of the project's findings a predicate (placeholders from `$2`) matches; merged
   * findings are left out (a run never writes them, and the list does not show them).
   */
  async preview(
    projectId: string,
    predicate: RulePredicate,
  ): Promise<{ matched: number; suppressed: number }> {
    const rows = (await this.dataSource.query(
      `SELECT count(*)::int AS matched,
         count(*) FILTER (WHERE f.suppression_rule_id IS NOT NULL)::int AS suppressed
         FROM findings f WHERE f.project_id = $1 AND f.merged_into_id IS NULL
          AND (${predicate.sql}) IS TRUE`,
      [projectId, ...predicate.params],
    )) as { matched: number; suppressed: number }[];
    return rows[0] ?? { matched: 0, suppressed: 0 };
  }
}
