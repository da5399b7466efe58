import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { insertFindingActionsSql } from '../action-log/finding-actions.sql';
import { approachLeadSql, APPROACH_MAX_HOURS, isoTextSql } from '../sla-clock/sla-clock.sql';
import type { SlaViolationKind } from './sla-violation.entity';

/** Actor label of the hourly check in the action log and on the violations it resolves. */
export const SLA_CHECK_ACTOR = 'sla-check';

/**
 * Open violations whose condition no longer holds at $1: the finding is gone, its clock
 * stopped or lost its days, or its deadline moved (return to work after a pause, the project's
 * days changed) so that it is no longer breached / approaching. A paused clock keeps its
 * violations (its deadline is frozen until the return to work).
 */
const RECONCILE = `
WITH stale AS (
  SELECT v.id, CASE WHEN f.id IS NULL THEN 'finding_deleted' ELSE 'deadline_moved' END AS why
    FROM sla_violations v LEFT JOIN findings f ON f.id = v.finding_id
   WHERE v.resolved_at IS NULL
     AND (f.id IS NULL OR f.sla_due_at IS NULL
       OR (v.kind = 'breached' AND f.sla_due_at > $1)
       OR (v.kind = 'approaching' AND f.sla_due_at - ${approachLeadSql('f.sla_days')} > $1))
   FOR UPDATE OF v
), resolved AS (
  UPDATE sla_violations v SET resolved_at = $1, resolution = s.why,
    resolved_by_type = 'system', resolved_by_label = '${SLA_CHECK_ACTOR}'
    FROM stale s WHERE v.id = s.id
  RETURNING v.id
)
SELECT count(*)::int AS n FROM resolved`;

/** One automatic action-log entry per violation of CTE `fresh`, at $1. */
const OPENED_LOG = insertFindingActionsSql(
  [
    'finding_id',
    'project_id',
    'actor_type',
    'actor_label',
    'action',
    'from_value',
    'to_value',
    'at',
  ],
  `SELECT n.finding_id, n.project_id, 'system', '${SLA_CHECK_ACTOR}',
    CASE n.kind WHEN 'breached' THEN 'sla_breached' ELSE 'sla_approaching' END, NULL,
    jsonb_build_object('violation_id', n.id, 'sla_due_at', ${isoTextSql('n.due_at')}), $1
    FROM fresh n`,
);

/**
 * Running clocks (partial index on the deadlines of started clocks; only deadlines within the
 * longest approach lead are read) that are breached or approaching at $1 and have no open
 * violation of that kind, nor a resolved one for the same deadline (a violation resolved by
 * hand is not reopened until the deadline changes): one violation each, the approaching one
 * of a now breached finding resolved as `breached`, one automatic action-log entry each.
 */
const OPEN = `
WITH candidates AS (
  SELECT f.id, f.project_id, f.product_id, f.severity, f.sla_due_at,
         CASE WHEN f.sla_due_at <= $1 THEN 'breached' ELSE 'approaching' END AS kind
    FROM findings f
   WHERE f.sla_due_at IS NOT NULL AND f.sla_paused_at IS NULL AND f.merged_into_id IS NULL
     AND f.suppression_rule_id IS NULL
     AND f.sla_due_at <= $1 + interval '${APPROACH_MAX_HOURS} hours'
     AND f.sla_due_at - ${approachLeadSql('f.sla_days')} <= $1
), fresh AS (
  INSERT INTO sla_violations (finding_id, project_id, product_id, severity, kind, due_at, opened_at)
  SELECT c.id, c.project_id, c.product_id, c.severity, c.kind, c.sla_due_at, $1
    FROM candidates c
   WHERE NOT EXISTS (SELECT 1 FROM sla_violations v
                      WHERE v.finding_id = c.id AND v.kind = c.kind
                        AND (v.resolved_at IS NULL OR v.due_at = c.sla_due_at))
  ON CONFLICT DO NOTHING
  RETURNING id, finding_id, project_id, kind, due_at
), superseded AS (
  UPDATE sla_violations v SET resolved_at = $1, resolution = 'breached',
    resolved_by_type = 'system', resolved_by_label = '${SLA_CHECK_ACTOR}'
    FROM fresh n
   WHERE n.kind = 'breached' AND v.finding_id = n.finding_id AND v.kind = 'approaching'
     AND v.resolved_at IS NULL
  RETURNING 1
), logged AS (
  ${OPENED_LOG}
  RETURNING 1
)
SELECT (SELECT count(*) FROM fresh WHERE kind = 'approaching')::int AS approaching,
       (SELECT count(*) FROM fresh WHERE kind = 'breached')::int AS breached,
       (SELECT count(*) FROM superseded)::int AS superseded,
       (SELECT count(*) FROM logged)::int AS logged`;

/** Open violations not yet handed to the notification queue (oldest first). */
const UNNOTIFIED = `
SELECT v.id, v.finding_id, v.project_id, v.product_id, v.severity, v.kind, v.due_at,
       COALESCE(f.title, '') AS title
  FROM sla_violations v LEFT JOIN findings f ON f.id = v.finding_id
 WHERE v.notified_at IS NULL AND v.resolved_at IS NULL AND f.merged_into_id IS NULL
 ORDER BY v.id LIMIT $1`;

export interface OpenedViolations {
  approaching: number;
  breached: number;
  /** Approaching violations resolved because the finding is now breached. */
  superseded: number;
}

export interface UnnotifiedViolation {
  id: string;
  findingId: string;
  projectId: string;
  productId: string;
  severity: string;
  kind: SlaViolationKind;
  dueAt: Date;
  title: string;
}

/** The hourly deadline check's statements (set-based; each its own transaction). */
@Injectable()
export class SlaCheckRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async reconcile(now: Date): Promise<number> {
    const [row] = (await this.dataSource.query(RECONCILE, [now])) as { n: number }[];
    return row?.n ?? 0;
  }

  async open(now: Date): Promise<OpenedViolations> {
    const [row] = (await this.dataSource.query(OPEN, [now])) as OpenedViolations[];
    return row ?? { approaching: 0, breached: 0, superseded: 0 };
  }

  async unnotified(limit: number): Promise<UnnotifiedViolation[]> {
    const rows = (await this.dataSource.query(UNNOTIFIED, [limit])) as Record<string, unknown>[];
    return rows.map((r) => ({
      id: String(r['id']),
      findingId: String(r['finding_id']),
      projectId: String(r['project_id']),
      productId: String(r['product_id']),
      severity: String(r['severity']),
      kind: r['kind'] as SlaViolationKind,
      dueAt: r['due_at'] as Date,
      title: String(r['title']),
    }));
  }

  async markNotified(ids: string[], now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE sla_violations SET notified_at = $2 WHERE id = ANY($1::uuid[]) AND notified_at IS NULL`,
      [ids, now],
    );
  }
}
