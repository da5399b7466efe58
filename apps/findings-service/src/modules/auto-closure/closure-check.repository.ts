import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FINDING_STATUS_GROUPS } from '../findings/finding-status';
import type { AutoClosureCheckEntity, CheckState } from './auto-closure.entities';

/** Attention states: the only states an automatic closure moves from. */
export const ATTENTION = `ARRAY[${FINDING_STATUS_GROUPS.attention.map((s) => `'${s}'`).join(',')}]::text[]`;

/**
 * The key of where a finding lives, the unit of a report's coverage
 * (docs/findings-service/auto-closure.md#coverage): `f:<path>` for code, `h:<host>` for network
 * and web findings (host of the address, lower-case; the IP when there is no name).
 */
export function locationKeySql(f: string): string {
  return `CASE ${f}.identity_kind
    WHEN 'code' THEN CASE WHEN ${f}.file_path <> '' THEN 'f:' || ${f}.file_path END
    WHEN 'web' THEN 'h:' || lower(substring(${f}.url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(\\[[^]]*\\]|[^:/?#]*)'))
    ELSE 'h:' || lower(COALESCE(NULLIF(${f}.host, ''), ${f}.ip)) END`;
}

/** The report a check evaluates, with what the gates need. */
export interface CheckedReport {
  reportId: string;
  productId: string;
  projectId: string;
  status: string;
  verifyFixes: boolean;
  projectAutoVerify: boolean;
  createdAt: Date;
}

export interface AttemptCounts {
  candidates: number;
  present: number;
  undetermined: number;
  gone: number;
}

/** What the final step did to the counters. */
export interface FinalCounts {
  absent: number;
  present: number;
  undetermined: number;
  /** Findings whose streak reached the required number of checks with this one. */
  reached: number;
}

/**
 * The closure check's SQL: the candidates of a report (set-based, one pass over the product's
 * findings per statement), the attempts, and the counters. Only this module writes
 * `auto_closure_checks`, `auto_closure_candidates` and `finding_absences`.
 */
@Injectable()
export class ClosureCheckRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async loadReport(reportId: string): Promise<CheckedReport | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT r.id, r.product_id, r.project_id, r.status, r.verify_fixes, r.created_at,
              p.auto_verify_fixes
         FROM reports r JOIN projects p ON p.id = r.project_id WHERE r.id = $1`,
      [reportId],
    )) as Record<string, unknown>[];
    const row = rows[0];
    if (!row) return undefined;
    return {
      reportId: row.id as string,
      productId: row.product_id as string,
      projectId: row.project_id as string,
      status: row.status as string,
      verifyFixes: row.verify_fixes as boolean,
      projectAutoVerify: row.auto_verify_fixes as boolean,
      createdAt: row.created_at as Date,
    };
  }

  async findCheck(reportId: string): Promise<AutoClosureCheckEntity | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT report_id AS "reportId", project_id AS "projectId", product_id AS "productId",
              state, reason, attempts_done AS "attemptsDone", candidates, absent, present,
              undetermined, closed, started_at AS "startedAt", finished_at AS "finishedAt"
         FROM auto_closure_checks WHERE report_id = $1`,
      [reportId],
    )) as AutoClosureCheckEntity[];
    return rows[0];
  }

  /** Records a check that does not run (a switch is off); nothing else is touched. */
  async skip(report: CheckedReport, reason: string, now: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO auto_closure_checks
         (report_id, project_id, product_id, state, reason, started_at, finished_at)
       VALUES ($1, $2, $3, 'skipped', $4, $5, $5) ON CONFLICT (report_id) DO NOTHING`,
      [report.reportId, report.projectId, report.productId, reason, now],
    );
  }

  /**
   * Starts a check: records it (`running`) and selects its candidates — the findings of the
   * product in an attention state, last reported by a scanner of this report, not seen by this
   * report or any later one, whose location is covered by what the report scanned. A run that
   * could not read all its results, or says it did not finish, makes its candidates
   * `undetermined`; so do files the tool reported failing on. Returns false when the check
   * already exists (a retried job).
   */
  async start(report: CheckedReport, now: Date): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const inserted = (await manager.query(
        `INSERT INTO auto_closure_checks
           (report_id, project_id, product_id, state, started_at)
         VALUES ($1, $2, $3, 'running', $4) ON CONFLICT (report_id) DO NOTHING RETURNING 1`,
        [report.reportId, report.projectId, report.productId, now],
      )) as unknown[];
      if (inserted.length === 0) return false;
      await this.selectCandidates(manager, report);
      return true;
    });
  }

  private async selectCandidates(manager: EntityManager, report: CheckedReport): Promise<void> {
    await manager.query(
      `WITH run AS (
         SELECT c->>'scanner' AS scanner,
                COALESCE((c->>'incomplete')::boolean, false)
                  OR COALESCE((c->>'skipped')::int, 0) > 0 AS undecided,
                c
           FROM reports r, jsonb_array_elements(COALESCE(r.coverage,
                  -- written before coverage was recorded: nothing can be decided
                  jsonb_build_array(jsonb_build_object('scanner', r.scanner, 'incomplete', true)))) c
          WHERE r.id = $1 AND jsonb_typeof(c) = 'object'
       ), covered AS (
         SELECT DISTINCT f.scanner, ${locationKeySql('f')} AS k
           FROM findings f
          WHERE f.product_id = $2 AND f.last_report_id = $1
         UNION
         SELECT run.scanner, 'f:' || x FROM run, jsonb_array_elements_text(
           CASE WHEN jsonb_typeof(run.c->'files') = 'array' THEN run.c->'files' ELSE '[]' END) x
         UNION
         SELECT run.scanner, 'h:' || lower(x) FROM run, jsonb_array_elements_text(
           CASE WHEN jsonb_typeof(run.c->'hosts') = 'array' THEN run.c->'hosts' ELSE '[]' END) x
       ), failed AS (
         SELECT run.scanner, 'f:' || x AS k FROM run, jsonb_array_elements_text(
           CASE WHEN jsonb_typeof(run.c->'failed_files') = 'array' THEN run.c->'failed_files' ELSE '[]' END) x
       ), scanners AS (
         SELECT scanner, bool_or(undecided) AS undecided FROM run GROUP BY scanner
       )
       INSERT INTO auto_closure_candidates (report_id, finding_id, seen_at, seen_report_id, result)
       SELECT $1, f.id, f.last_seen_at, f.last_report_id,
              CASE WHEN s.undecided OR EXISTS (
                     SELECT 1 FROM failed x WHERE x.scanner = f.scanner AND x.k = ${locationKeySql('f')})
                   THEN 'undetermined' ELSE 'absent' END
         FROM findings f
         JOIN scanners s ON s.scanner = f.scanner
        WHERE f.product_id = $2
          AND f.status = ANY(${ATTENTION})
          AND f.last_report_id IS DISTINCT FROM $1
          AND f.last_seen_at < $3
          AND EXISTS (SELECT 1 FROM covered v WHERE v.scanner = f.scanner AND v.k = ${locationKeySql('f')})`,
      [report.reportId, report.productId, report.createdAt],
    );
  }

  /**
   * One attempt: a candidate seen again since it was selected (by any report) is `present`;
   * one that left the attention states is `gone`; while another report of the product is
   * still being ingested, no candidate can be called absent (`undetermined`). A candidate never
   * returns to `absent`.
   */
  async attempt(report: CheckedReport): Promise<AttemptCounts> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `WITH busy AS (
           SELECT EXISTS (SELECT 1 FROM reports WHERE product_id = $2 AND status = 'pending'
                             AND id <> $1) AS busy
         )
         UPDATE auto_closure_candidates c SET result = CASE
             WHEN NOT (f.status = ANY(${ATTENTION})) THEN 'gone'
             WHEN f.last_seen_at <> c.seen_at OR f.last_report_id IS DISTINCT FROM c.seen_report_id
               THEN 'present'
             ELSE 'undetermined' END
           FROM findings f, busy
          WHERE c.report_id = $1 AND f.id = c.finding_id AND c.result = 'absent'
            AND (NOT (f.status = ANY(${ATTENTION})) OR f.last_seen_at <> c.seen_at
                 OR f.last_report_id IS DISTINCT FROM c.seen_report_id OR busy.busy)`,
        [report.reportId, report.productId],
      );
      await manager.query(
        `UPDATE auto_closure_checks SET attempts_done = attempts_done + 1 WHERE report_id = $1`,
        [report.reportId],
      );
      return this.countCandidates(manager, report.reportId);
    });
  }

  private async countCandidates(manager: EntityManager, reportId: string): Promise<AttemptCounts> {
    const rows = (await manager.query(
      `SELECT count(*)::int AS candidates,
              count(*) FILTER (WHERE result = 'present')::int AS present,
              count(*) FILTER (WHERE result = 'undetermined')::int AS undetermined,
              count(*) FILTER (WHERE result = 'gone')::int AS gone
         FROM auto_closure_candidates WHERE report_id = $1`,
      [reportId],
    )) as AttemptCounts[];
    return rows[0] ?? { candidates: 0, present: 0, undetermined: 0, gone: 0 };
  }

  /**
   * The check's verdicts become the counters, in one transaction that also ends the check (so
   * a retried job changes nothing twice):
   * - `absent`: the streak grows by one if it was counted for the same scanner and the finding
   *   was not seen since (`basis_seen_at` unchanged), else it starts at 1;
   * - `present` and `undetermined`: an existing streak ends (0);
   * - findings of the product seen again since their streak was counted: streak 0 (`present`).
   * Returns the counts, and how many findings reached `required` checks with this one.
   */
  async finish(
    report: CheckedReport,
    required: number,
    now: Date,
    reason: string | null,
  ): Promise<FinalCounts | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const locked = (await manager.query(
        `SELECT state FROM auto_closure_checks WHERE report_id = $1 FOR UPDATE`,
        [report.reportId],
      )) as { state: CheckState }[];
      if (locked[0]?.state !== 'running') return undefined;
      const counted = (await manager.query(
        `WITH absent AS (
           INSERT INTO finding_absences AS a
             (finding_id, project_id, product_id, scanner, streak, streak_started_at,
              basis_seen_at, check_reports, last_result, last_report_id, last_check_at, updated_at)
           SELECT f.id, f.project_id, f.product_id, f.scanner, 1, $3, f.last_seen_at,
                  ARRAY[$1::uuid], 'absent', $1, $3, $3
             FROM auto_closure_candidates c JOIN findings f ON f.id = c.finding_id
            WHERE c.report_id = $1 AND c.result = 'absent' AND f.last_seen_at = c.seen_at
              AND f.last_report_id IS NOT DISTINCT FROM c.seen_report_id
              AND f.status = ANY(${ATTENTION})
           ON CONFLICT (finding_id) DO UPDATE SET
             streak = CASE WHEN a.streak > 0 AND a.scanner = EXCLUDED.scanner
                            AND a.basis_seen_at = EXCLUDED.basis_seen_at
                           THEN a.streak + 1 ELSE 1 END,
             streak_started_at = CASE WHEN a.streak > 0 AND a.scanner = EXCLUDED.scanner
                            AND a.basis_seen_at = EXCLUDED.basis_seen_at
                           THEN a.streak_started_at ELSE EXCLUDED.streak_started_at END,
             check_reports = CASE WHEN a.streak > 0 AND a.scanner = EXCLUDED.scanner
                            AND a.basis_seen_at = EXCLUDED.basis_seen_at
                           THEN (a.check_reports || EXCLUDED.check_reports)[
                                  greatest(1, cardinality(a.check_reports) - 8):]
                           ELSE EXCLUDED.check_reports END,
             scanner = EXCLUDED.scanner, basis_seen_at = EXCLUDED.basis_seen_at,
             last_result = 'absent', last_report_id = EXCLUDED.last_report_id,
             last_check_at = EXCLUDED.last_check_at, updated_at = EXCLUDED.updated_at
           RETURNING a.streak
         ), ended AS (
           UPDATE finding_absences a SET streak = 0, streak_started_at = NULL,
                  check_reports = '{}', last_result = c.result, last_report_id = $1,
                  last_check_at = $3, updated_at = $3
             FROM auto_closure_candidates c
            WHERE c.report_id = $1 AND c.result IN ('present', 'undetermined')
              AND a.finding_id = c.finding_id
           RETURNING 1
         ), seen AS (
           UPDATE finding_absences a SET streak = 0, streak_started_at = NULL,
                  check_reports = '{}', last_result = 'present', basis_seen_at = f.last_seen_at,
                  last_report_id = $1, last_check_at = $3, updated_at = $3
             FROM findings f
            WHERE a.project_id = $4 AND a.product_id = $2 AND f.id = a.finding_id
              AND f.last_seen_at > a.basis_seen_at
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM absent)::int AS absent,
                (SELECT count(*) FROM absent WHERE streak >= $5)::int AS reached,
                (SELECT count(*) FROM ended)::int AS ended,
                (SELECT count(*) FROM seen)::int AS seen`,
        [report.reportId, report.productId, now, report.projectId, required],
      )) as { absent: number; reached: number }[];
      const totals = await this.countCandidates(manager, report.reportId);
      const absent = counted[0]?.absent ?? 0;
      await manager.query(
        `UPDATE auto_closure_checks SET state = 'completed', reason = $2, candidates = $3,
                absent = $4, present = $5, undetermined = $6
          WHERE report_id = $1`,
        [
          report.reportId,
          reason,
          totals.candidates - totals.gone,
          absent,
          totals.present,
          totals.undetermined,
        ],
      );
      await manager.query(`DELETE FROM auto_closure_candidates WHERE report_id = $1`, [
        report.reportId,
      ]);
      return {
        absent,
        present: totals.present,
        undetermined: totals.undetermined,
        reached: counted[0]?.reached ?? 0,
      };
    });
  }

  /**
   * Ends a counted check: the closures made right after it, and `finished_at` (the check is
   * over only once its re-verification requests went out and eligible findings were closed).
   */
  async markFinished(reportId: string, closed: number, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE auto_closure_checks SET closed = closed + $2, finished_at = $3
        WHERE report_id = $1 AND finished_at IS NULL`,
      [reportId, closed, now],
    );
  }
}
