import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { FindingStatus } from '../findings/finding-status';
import type { AbsenceResult } from './auto-closure.entities';

/** What the finding page shows about the automatic closure of one finding (reads only). */
export interface AutoClosureRecord {
  status: FindingStatus;
  statusChangedAt: Date | null;
  lastSeenAt: Date;
  projectId: string;
  projectEnabled: boolean;
  absence: {
    streak: number;
    streakStartedAt: Date | null;
    basisSeenAt: Date;
    checkReports: string[];
    lastResult: AbsenceResult;
    lastReportId: string;
    lastCheckAt: Date;
    confirmation: AbsenceResult | null;
    confirmationAt: Date | null;
    confirmationId: string | null;
    requestedAt: Date | null;
  } | null;
  closure: { closedAt: Date; evidence: Record<string, unknown> } | null;
  usedThisHour: number;
  /** The latest check of a report of the finding's product (why nothing is counted, often). */
  lastProductCheck: {
    reportId: string;
    state: string;
    reason: string | null;
    finishedAt: Date | null;
  } | null;
}

@Injectable()
export class AutoClosureViewRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async load(findingId: string, now: Date): Promise<AutoClosureRecord | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT f.status, f.status_changed_at, f.last_seen_at, f.project_id, p.auto_verify_fixes,
              to_jsonb(a) AS absence,
              (SELECT jsonb_build_object('closed_at', c.closed_at, 'evidence', c.evidence)
                 FROM auto_closures c WHERE c.finding_id = f.id
                ORDER BY c.closed_at DESC LIMIT 1) AS closure,
              (SELECT count(*)::int FROM auto_closures c
                WHERE c.project_id = f.project_id
                  AND c.closed_at > $2::timestamptz - interval '1 hour') AS used,
              (SELECT jsonb_build_object('report_id', k.report_id, 'state', k.state,
                        'reason', k.reason, 'finished_at', k.finished_at)
                 FROM auto_closure_checks k WHERE k.product_id = f.product_id
                ORDER BY k.started_at DESC LIMIT 1) AS last_check
         FROM findings f JOIN projects p ON p.id = f.project_id
         LEFT JOIN finding_absences a ON a.finding_id = f.id
        WHERE f.id = $1`,
      [findingId, now],
    )) as Record<string, unknown>[];
    const row = rows[0];
    if (!row) return undefined;
    const a = row.absence as Record<string, unknown> | null;
    const closure = row.closure as { closed_at: string; evidence: Record<string, unknown> } | null;
    const check = row.last_check as Record<string, unknown> | null;
    const date = (v: unknown): Date | null => (typeof v === 'string' ? new Date(v) : null);
    return {
      status: row.status as FindingStatus,
      statusChangedAt: (row.status_changed_at as Date | null) ?? null,
      lastSeenAt: row.last_seen_at as Date,
      projectId: row.project_id as string,
      projectEnabled: row.auto_verify_fixes as boolean,
      absence: a && {
        streak: a.streak as number,
        streakStartedAt: date(a.streak_started_at),
        basisSeenAt: new Date(a.basis_seen_at as string),
        checkReports: (a.check_reports as string[]) ?? [],
        lastResult: a.last_result as AbsenceResult,
        lastReportId: a.last_report_id as string,
        lastCheckAt: new Date(a.last_check_at as string),
        confirmation: (a.confirmation as AbsenceResult | null) ?? null,
        confirmationAt: date(a.confirmation_at),
        confirmationId: (a.confirmation_id as string | null) ?? null,
        requestedAt: date(a.requested_at),
      },
      closure: closure && { closedAt: new Date(closure.closed_at), evidence: closure.evidence },
      usedThisHour: row.used as number,
      lastProductCheck: check && {
        reportId: check.report_id as string,
        state: check.state as string,
        reason: (check.reason as string | null) ?? null,
        finishedAt: date(check.finished_at),
      },
    };
  }
}
