import type { Actor } from '../../action-log/finding-action';
import { insertFindingActionsSql } from '../../action-log/finding-actions.sql';
import { resolveClosedFindingsViolationsSql } from '../../sla/closed-findings-violations.sql';
import { clockSetSql, effectiveDeadlineSql, isoTextSql } from '../../sla-clock/sla-clock.sql';
import { FINDINGS_FROM, SqlParams } from '../list/finding-selection.sql';
import type { TransitionPlan } from './finding-lifecycle';

/** A status change applied to every finding a WHERE selects. */
export interface StatusChange {
  /** Conditions over `findings f` (joined with `projects p`, `products pr`); their params in `params`. */
  where: string[];
  params: SqlParams;
  plan: Pick<TransitionPlan, 'to' | 'fields' | 'clock' | 'closesViolations'>;
  actor: Actor;
  now: Date;
  /** At most this many findings (in id order); none: all. */
  limit?: number;
  /**
   * Change nothing when more than this many findings are selected (give `limit` above it, so
   * `matched` > `max` tells): the size check of a bulk change without a separate count.
   */
  max?: number;
  /** Skip findings another transaction holds (periodic tasks: they come back next run). */
  skipLocked?: boolean;
  /**
   * Per finding id, an object added to its action-log entry's `to` as `evidence` (the
   * automatic closure records which reports and which confirmation closed the finding).
   */
  evidence?: Record<string, Record<string, unknown>>;
  /** The decision's reason, written into each entry's `to` as `justification`. */
  justification?: string | null;
  /** Also return the ids of the changed findings (`ids` of statusChangeCounts). */
  returnIds?: boolean;
}

/** Counts of one statement. */
export interface StatusChangeCounts {
  /** Findings selected (and locked). */
  matched: number;
  /** Findings whose status or state fields changed (one action-log entry each). */
  changed: number;
  /** Open deadline violations closed by a closing state. */
  violationsClosed: number;
  /** The changed findings (only with `returnIds`). */
  ids?: string[];
}

/**
 * One set-based statement for a status change of any number of findings, the same for PATCH
 * (one id), the bulk change and the periodic tasks:
 *
 * 1. `target` locks the selected findings in id order and reads what they were (`FOR UPDATE`
 *    returns the latest version of a row another transaction just changed);
 * 2. `changed` updates those whose status or state fields differ: status, status date, state
 *    fields, and the remediation clock (clockSetSql of the plan's effect). The findings are
 *    reached by primary key (`f.id = ANY(ARRAY(SELECT id FROM target))`, an index scan the
 *    planner sizes as a handful of rows): joined on `f.id = t.id` alone, a large selection
 *    (the planner sizes `target` from the filter) made it hash-join a sequential scan of the
 *    whole table (0.8 s of 2.7 s for 50 000 of 1 M findings, docs/benchmarks.md). Not a
 *    `ctid` join: a row another transaction changed before `target` locked it is locked in its
 *    latest version, which the statement's snapshot does not see — by key, the UPDATE finds
 *    the version it sees and follows it to the locked one, as PostgreSQL does for any UPDATE;
 * 3. `logged` writes one action-log entry per changed finding (`status_changed`, or
 *    `triage_updated` when only the state's date/reason changed) with the actor, `from`/`to`
 *    and the deadline before and after (`sla_due_at`, both as they stand at that moment — a
 *    paused clock counts its pause so far — and only when the move shifted it), and the
 *    decision's `justification`. The objects are built cheaply (a third
 *    of the cost, same JSON): `to` is the same for every finding but its deadline, so it is
 *    built once (an uncorrelated subquery) and only a deadline is added per finding; `from` is
 *    just the status unless the finding had state fields or a deadline;
 * 4. `closed` (closing states only) resolves the findings' open deadline violations.
 *
 * The action-log entries and the violations are the statements of their tables' owners
 * (action-log/finding-actions.sql.ts, sla/closed-findings-violations.sql.ts), run here as CTEs.
 */
export function statusChangeSql(change: StatusChange): { sql: string; values: unknown[] } {
  const p = change.params;
  const now = `${p.add(change.now)}::timestamptz`;
  const to = `${p.add(change.plan.to)}::text`;
  const risk = `${p.add(change.plan.fields.riskAcceptedUntil)}::timestamptz`;
  const reason = `${p.add(change.plan.fields.waitingReason)}::text`;
  const until = `${p.add(change.plan.fields.waitingUntil)}::timestamptz`;
  const actorType = `${p.add(change.actor.type)}::text`;
  const actorId = `${p.add(change.actor.id)}::uuid`;
  const actorLabel = `${p.add(change.actor.label)}::text`;
  const justification = `${p.add(change.justification ?? null)}::text`;
  const limit = change.limit === undefined ? '' : `LIMIT ${p.add(change.limit)}`;
  const where = change.where.length > 0 ? change.where.join(' AND ') : 'TRUE';
  const withinMax =
    change.max === undefined ? '' : ` AND (SELECT count(*) FROM target) <= ${p.add(change.max)}`;
  const fromValue = `jsonb_strip_nulls(jsonb_build_object('status', c.old_status,
      'risk_accepted_until', CASE WHEN c.old_status = 'risk_accepted'
        THEN ${isoTextSql('c.old_risk')} END,
      'waiting_reason', CASE WHEN c.old_status = 'waiting' THEN c.old_reason END,
      'waiting_until', CASE WHEN c.old_status = 'waiting' THEN ${isoTextSql('c.old_until')} END,
      'sla_due_at', CASE WHEN c.due_before IS DISTINCT FROM c.due_after
        THEN ${isoTextSql('c.due_before')} END))`;
  const toFields = `(SELECT jsonb_strip_nulls(jsonb_build_object('status', ${to},
      'risk_accepted_until', ${isoTextSql(risk)}, 'waiting_reason', ${reason},
      'waiting_until', ${isoTextSql(until)}, 'justification', ${justification})))`;
  const evidence =
    change.evidence === undefined
      ? ''
      : ` || COALESCE(jsonb_build_object('evidence', ${p.add(JSON.stringify(change.evidence))}::jsonb -> c.id::text), '{}'::jsonb)`;
  const logged = insertFindingActionsSql(
    [
      'finding_id',
      'project_id',
      'actor_type',
      'actor_id',
      'actor_label',
      'action',
      'from_value',
      'to_value',
      'at',
    ],
    `SELECT c.id, c.project_id, ${actorType}, ${actorId}, ${actorLabel},
    CASE WHEN c.old_status <> ${to} THEN 'status_changed' ELSE 'triage_updated' END,
    CASE WHEN c.old_status NOT IN ('risk_accepted', 'waiting')
        AND (c.due_before IS NULL OR c.due_before IS NOT DISTINCT FROM c.due_after)
      THEN jsonb_build_object('status', c.old_status) ELSE ${fromValue} END,
    (CASE WHEN c.due_after IS NULL OR c.due_after IS NOT DISTINCT FROM c.due_before
      THEN ${toFields}
      ELSE ${toFields} || jsonb_build_object('sla_due_at', ${isoTextSql('c.due_after')}) END)${evidence},
    ${now}
    FROM changed c`,
  );
  const closed = change.plan.closesViolations
    ? `, closed AS (
  ${resolveClosedFindingsViolationsSql({ closed: 'changed', at: now, actorType, actorId, actorLabel })}
  RETURNING 1)`
    : '';
  const sql = `
WITH target AS (
  SELECT f.id, f.project_id, f.status AS old_status, f.risk_accepted_until AS old_risk,
         f.waiting_reason AS old_reason, f.waiting_until AS old_until,
         ${effectiveDeadlineSql(now)} AS due_before
    FROM ${FINDINGS_FROM} WHERE ${where}
   ORDER BY f.id ${limit} FOR UPDATE OF f${change.skipLocked ? ' SKIP LOCKED' : ''}
), changed AS (
  UPDATE findings f SET status = ${to},
    status_changed_at = CASE WHEN t.old_status <> ${to} THEN ${now} ELSE f.status_changed_at END,
    risk_accepted_until = ${risk}, waiting_reason = ${reason}, waiting_until = ${until},
    updated_at = ${now}, ${clockSetSql(change.plan.clock, now)}
    FROM target t
   WHERE f.id = ANY(ARRAY(SELECT id FROM target)) AND f.id = t.id AND (t.old_status <> ${to} OR t.old_risk IS DISTINCT FROM ${risk}
     OR t.old_reason IS DISTINCT FROM ${reason} OR t.old_until IS DISTINCT FROM ${until})${withinMax}
  RETURNING f.id, f.project_id, t.old_status, t.old_risk, t.old_reason, t.old_until,
    t.due_before, ${effectiveDeadlineSql(now)} AS due_after
), logged AS (
  ${logged}
  RETURNING 1
)${closed}
SELECT (SELECT count(*) FROM target)::int AS matched,
       (SELECT count(*) FROM changed)::int AS changed,
       (SELECT count(*) FROM logged)::int AS logged,
       ${change.plan.closesViolations ? '(SELECT count(*) FROM closed)::int' : '0'} AS closed${
         change.returnIds ? ',\n       ARRAY(SELECT id FROM changed)::text[] AS ids' : ''
       }`;
  return { sql, values: p.values };
}

/** Reads the counts row of statusChangeSql. */
export function statusChangeCounts(rows: unknown): StatusChangeCounts {
  const row = (rows as { matched: number; changed: number; closed: number; ids?: string[] }[])[0];
  return {
    matched: row?.matched ?? 0,
    changed: row?.changed ?? 0,
    violationsClosed: row?.closed ?? 0,
    ...(row?.ids ? { ids: row.ids } : {}),
  };
}
