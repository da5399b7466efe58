import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { systemActor } from '../action-log/finding-action';
import { CLOCK_EFFECT_OF } from '../findings/lifecycle/finding-lifecycle';
import { statusChangeCounts, statusChangeSql } from '../findings/lifecycle/status-change.sql';
import { SqlParams } from '../findings/list/finding-selection.sql';
import { ATTENTION } from './closure-check.sql';

/** The `system` actor's label of automatic closures in the action log. */
export const AUTO_CLOSURE_ACTOR = 'auto-closure';

export interface ClosureRules {
  /** Consecutive absent checks required. */
  required: number;
  /** Automatic closures per project in any hour. */
  maxPerHour: number;
  now: Date;
}

export interface ClosureOutcome {
  closed: string[];
  /** Eligible findings left open by the hourly cap (they close in a later hour). */
  capped: number;
}

/**
 * A finding may be closed when its streak has the required checks, the finding was not seen
 * since the streak was counted, it is still in an attention state, and the second mechanism
 * (a scanner's re-verification) answered `absent` after the streak began. Over `a` and `f`.
 */
export function eligibleSql(required: string): string {
  return `a.streak >= ${required} AND a.last_result = 'absent'
     AND a.confirmation = 'absent' AND a.confirmation_at >= a.streak_started_at
     AND f.last_seen_at = a.basis_seen_at AND f.status = ANY(${ATTENTION})`;
}

/**
 * Closes eligible findings of one project under the hourly cap, in one transaction serialized
 * per project (an advisory lock: N API and worker replicas never exceed the cap together). The
 * status change is the findings module's statement (one action-log entry per finding, actor
 * `system`/`auto-closure`, its evidence in the entry); each closure is also recorded with its
 * evidence in `auto_closures` (what the cap counts and the finding page shows).
 */
@Injectable()
export class ClosureRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Projects with findings waiting only for a closure (the periodic task's work list). */
  async projectsWithEligible(required: number): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT DISTINCT a.project_id FROM finding_absences a JOIN findings f ON f.id = a.finding_id
        WHERE ${eligibleSql('$1')}`,
      [required],
    )) as { project_id: string }[];
    return rows.map((r) => r.project_id);
  }

  async closeEligible(projectId: string, rules: ClosureRules): Promise<ClosureOutcome> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
        `findings-service:auto-closure:${projectId}`,
      ]);
      const project = (await manager.query(`SELECT auto_verify_fixes FROM projects WHERE id = $1`, [
        projectId,
      ])) as { auto_verify_fixes: boolean }[];
      if (!project[0]?.auto_verify_fixes) return { closed: [], capped: 0 };
      const used = (await manager.query(
        `SELECT count(*)::int AS n FROM auto_closures
          WHERE project_id = $1 AND closed_at > $2::timestamptz - interval '1 hour'`,
        [projectId, rules.now],
      )) as { n: number }[];
      const remaining = Math.max(0, rules.maxPerHour - (used[0]?.n ?? 0));
      const total = (await manager.query(
        `SELECT count(*)::int AS n FROM finding_absences a JOIN findings f ON f.id = a.finding_id
          WHERE a.project_id = $1 AND ${eligibleSql('$2')}`,
        [projectId, rules.required],
      )) as { n: number }[];
      const waiting = total[0]?.n ?? 0;
      if (waiting === 0 || remaining === 0) return { closed: [], capped: waiting };
      const chosen = (await manager.query(
        `SELECT a.finding_id, a.streak, a.check_reports, a.confirmation_id, a.confirmation_at,
                v.answered_key_id, v.origin
           FROM finding_absences a JOIN findings f ON f.id = a.finding_id
           LEFT JOIN finding_verifications v ON v.id = a.confirmation_id
          WHERE a.project_id = $1 AND ${eligibleSql('$2')}
          ORDER BY a.updated_at, a.finding_id
          LIMIT $3`,
        [projectId, rules.required, remaining],
      )) as EligibleRow[];
      const evidence: Record<string, Record<string, unknown>> = {};
      for (const row of chosen) evidence[row.finding_id] = evidenceOf(row, rules.required);
      const params = new SqlParams();
      const ids = params.add(chosen.map((r) => r.finding_id));
      const required = params.add(rules.required);
      const change = statusChangeSql({
        where: [
          `f.id = ANY(${ids}::uuid[])`,
          `EXISTS (SELECT 1 FROM finding_absences a WHERE a.finding_id = f.id AND ${eligibleSql(required)})`,
        ],
        params,
        plan: {
          to: 'fixed',
          fields: { riskAcceptedUntil: null, waitingReason: null, waitingUntil: null },
          clock: CLOCK_EFFECT_OF.fixed,
          closesViolations: true,
        },
        actor: systemActor(AUTO_CLOSURE_ACTOR),
        now: rules.now,
        evidence,
        returnIds: true,
      });
      const closed = statusChangeCounts(await manager.query(change.sql, change.values)).ids ?? [];
      if (closed.length > 0) {
        await manager.query(
          `INSERT INTO auto_closures (finding_id, project_id, closed_at, evidence)
           SELECT id, $2, $3, ($4::jsonb -> id::text) FROM unnest($1::uuid[]) AS id`,
          [closed, projectId, rules.now, JSON.stringify(evidence)],
        );
        await manager.query(`DELETE FROM finding_absences WHERE finding_id = ANY($1::uuid[])`, [
          closed,
        ]);
      }
      return { closed, capped: Math.max(0, waiting - closed.length) };
    });
  }
}

interface EligibleRow {
  finding_id: string;
  streak: number;
  check_reports: string[];
  confirmation_id: string | null;
  confirmation_at: Date | null;
  answered_key_id: string | null;
  origin: string | null;
}

function evidenceOf(row: EligibleRow, required: number): Record<string, unknown> {
  return {
    mechanism: 'automatic_closure',
    checks: row.streak,
    required_checks: required,
    reports: row.check_reports,
    confirmation: {
      verification_id: row.confirmation_id,
      result: 'absent',
      at: row.confirmation_at?.toISOString() ?? null,
      key_id: row.answered_key_id,
      origin: row.origin,
    },
  };
}
