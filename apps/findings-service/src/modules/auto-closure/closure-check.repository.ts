import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AutoClosureCheckEntity, CheckState } from './auto-closure.entities';
import {
  COUNT_VERDICTS_SQL,
  MARK_PRESENT_SQL,
  REPORT_PENDING,
  SELECT_CANDIDATES_SQL,
} from './closure-check.sql';

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

/** What the final step did to the counters. */
export interface FinalCounts {
  absent: number;
  present: number;
  undetermined: number;
  /** Findings whose streak reached the required number of checks with this one. */
  reached: number;
}

/**
 * The closure check's statements (closure-check.sql.ts): the candidates of a report, the
 * attempts, and the counters. Only this module writes
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
   * Starts a check: records it (`running`) and selects its candidates in one pass over the
   * product's findings (closure-check.sql.ts). Returns false when the check already exists (a
   * retried job).
   */
  async start(report: CheckedReport, now: Date): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const inserted = (await manager.query(
        `INSERT INTO auto_closure_checks (report_id, project_id, product_id, state, started_at)
         VALUES ($1, $2, $3, 'running', $4) ON CONFLICT (report_id) DO NOTHING RETURNING 1`,
        [report.reportId, report.projectId, report.productId, now],
      )) as unknown[];
      if (inserted.length === 0) return false;
      const [selected] = (await manager.query(SELECT_CANDIDATES_SQL, [
        report.reportId,
        report.productId,
        report.createdAt,
      ])) as { candidates: number }[];
      await manager.query(`UPDATE auto_closure_checks SET candidates = $2 WHERE report_id = $1`, [
        report.reportId,
        selected?.candidates ?? 0,
      ]);
      return true;
    });
  }

  /**
   * One attempt, cheap unless something happened: while another report of the product is still
   * being ingested, the check can call nothing absent (it becomes undecided, `report_pending`,
   * for good); when a report of the product completed since the selection, candidates it saw
   * again are `present` (one join; nothing else can have seen them). The last step compares
   * every candidate with its finding once more anyway. A verdict never returns to `absent`.
   */
  async attempt(report: CheckedReport, startedAt: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const state = await this.productActivity(manager, report, startedAt);
      if (state.changed) await manager.query(MARK_PRESENT_SQL, [report.reportId]);
      await manager.query(
        `UPDATE auto_closure_checks SET attempts_done = attempts_done + 1,
                reason = CASE WHEN $2 THEN $3 ELSE reason END
          WHERE report_id = $1`,
        [report.reportId, state.busy, REPORT_PENDING],
      );
    });
  }

  /**
   * Another report of the product still ingesting (`busy`), or completed since `since` (with a
   * minute's margin: `since` is the service's clock, `finished_at` the database's; a needless
   * look only costs a join).
   */
  private async productActivity(
    manager: EntityManager,
    report: CheckedReport,
    since: Date,
  ): Promise<{ busy: boolean; changed: boolean }> {
    const [state] = (await manager.query(
      `SELECT EXISTS (SELECT 1 FROM reports WHERE product_id = $2 AND id <> $1
                        AND status = 'pending') AS busy,
              EXISTS (SELECT 1 FROM reports WHERE product_id = $2 AND id <> $1
                        AND status = 'completed'
                        AND finished_at >= $3::timestamptz - interval '1 minute') AS changed`,
      [report.reportId, report.productId, since],
    )) as { busy: boolean; changed: boolean }[];
    return { busy: state?.busy === true, changed: state?.changed === true };
  }

  /**
   * The check's verdicts become the counters, in the transaction that also ends the check (a
   * retried job changes nothing twice); see COUNT_VERDICTS_SQL.
   */
  async finish(
    report: CheckedReport,
    required: number,
    now: Date,
  ): Promise<FinalCounts | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [locked] = (await manager.query(
        `SELECT state, reason, started_at FROM auto_closure_checks WHERE report_id = $1 FOR UPDATE`,
        [report.reportId],
      )) as { state: CheckState; reason: string | null; started_at: Date }[];
      if (locked?.state !== 'running') return undefined;
      // The last look: what completed since the selection (the attempts looked before).
      const activity = await this.productActivity(manager, report, locked.started_at);
      if (activity.changed) await manager.query(MARK_PRESENT_SQL, [report.reportId]);
      const [row] = (await manager.query(COUNT_VERDICTS_SQL, [
        report.reportId,
        now,
        required,
        locked.reason === REPORT_PENDING || activity.busy,
      ])) as (FinalCounts & { candidates: number })[];
      const counts = row ?? { absent: 0, reached: 0, candidates: 0, present: 0, undetermined: 0 };
      await manager.query(
        `UPDATE auto_closure_checks SET state = 'completed', candidates = $2, absent = $3,
                present = $4, undetermined = $5
          WHERE report_id = $1`,
        [report.reportId, counts.candidates, counts.absent, counts.present, counts.undetermined],
      );
      await manager.query(`DELETE FROM auto_closure_candidates WHERE report_id = $1`, [
        report.reportId,
      ]);
      return {
        absent: counts.absent,
        present: counts.present,
        undetermined: counts.undetermined,
        reached: counts.reached,
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
