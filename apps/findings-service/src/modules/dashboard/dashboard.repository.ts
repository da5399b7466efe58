import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { approachLeadSql, effectiveDeadlineSql } from '../sla-clock/sla-clock.sql';
import { fixedEntriesSql, REMEDIATION_HOURS_SQL } from './remediation-entries.sql';

/** What the figures are grouped by. */
export type FigureAxis = 'severity' | 'project' | 'product';

/** Optional narrowing of every figure (ANDed). */
export interface FigureFilter {
  projectIds?: string[];
  productIds?: string[];
  severities?: string[];
}

/** Findings now, per group (statuses and remediation clocks). */
export interface OpenFigures {
  key: string;
  open: number;
  attention: number;
  inProgress: number;
  openBySeverity: Record<string, number>;
  /** Not closed, with a started clock and a deadline. */
  tracked: number;
  paused: number;
  overdue: number;
  approaching: number;
}

/** Moves to `fixed` in a period, per group, from the action log. */
export interface ClosureFigures {
  key: string;
  fixed: number;
  /** Those whose entry carries the deadline (the clock was started). */
  fixedWithDeadline: number;
  fixedInTime: number;
  /** Mean hours from detection (or the last re-detection) to the fix; null: none fixed. */
  mttrHours: number | null;
}

export interface ViolationFigures {
  key: string;
  approaching: number;
  breached: number;
}

/** One day (UTC) of one series. */
export interface TrendPoint {
  day: Date;
  severity: string | null;
  breachedOpened: number;
  approachingOpened: number;
  fixed: number;
  fixedWithDeadline: number;
  fixedInTime: number;
  mttrHours: number | null;
}

const FINDING_AXIS: Record<FigureAxis, string> = {
  severity: 'f.severity',
  project: 'f.project_id',
  product: 'f.product_id',
};
const VIOLATION_AXIS: Record<FigureAxis, string> = {
  severity: 'v.severity',
  project: 'v.project_id',
  product: 'v.product_id',
};

class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

function filterSql(alias: 'f' | 'v', filter: FigureFilter, p: Params): string {
  // Merged findings are counted through their survivor (docs/findings-service/merge.md).
  const where: string[] = [
    alias === 'f'
      ? 'f.merged_into_id IS NULL'
      : 'NOT EXISTS (SELECT 1 FROM findings m WHERE m.id = v.finding_id AND m.merged_into_id IS NOT NULL)',
  ];
  if (filter.projectIds)
    where.push(`${alias}.project_id = ANY(${p.add(filter.projectIds)}::uuid[])`);
  if (filter.productIds)
    where.push(`${alias}.product_id = ANY(${p.add(filter.productIds)}::uuid[])`);
  if (filter.severities) where.push(`${alias}.severity = ANY(${p.add(filter.severities)}::text[])`);
  return where.join(' AND ');
}

const int = (v: unknown): number => Number(v ?? 0);
const hours = (v: unknown): number | null =>
  v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10;

/**
 * The dashboards' figures: set-based aggregates over `findings`, `sla_violations` and the
 * action log (`finding_actions`: moves to `fixed` with the deadline they had, and `renewed`
 * entries for re-detection). Every statement takes the time as a parameter.
 */
@Injectable()
export class DashboardRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Open findings and remediation clocks now, grouped by `axis`. */
  async openFigures(axis: FigureAxis, filter: FigureFilter, now: Date): Promise<OpenFigures[]> {
    const p = new Params();
    const at = `${p.add(now)}::timestamptz`;
    const due = effectiveDeadlineSql(at);
    const rows = (await this.dataSource.query(
      `SELECT ${FINDING_AXIS[axis]}::text AS key,
          count(*) FILTER (WHERE f.status NOT IN ('fixed','false_positive'))::int AS open,
          count(*) FILTER (WHERE f.status IN ('new','renewed','needs_review','in_progress','confirmed','waiting'))::int AS attention,
          count(*) FILTER (WHERE f.status = 'in_progress')::int AS in_progress,
          count(*) FILTER (WHERE f.status NOT IN ('fixed','false_positive') AND f.severity = 'CRITICAL')::int AS open_critical,
          count(*) FILTER (WHERE f.status NOT IN ('fixed','false_positive') AND f.severity = 'HIGH')::int AS open_high,
          count(*) FILTER (WHERE f.status NOT IN ('fixed','false_positive') AND f.severity = 'MEDIUM')::int AS open_medium,
          count(*) FILTER (WHERE f.status NOT IN ('fixed','false_positive') AND f.severity = 'LOW')::int AS open_low,
          count(*) FILTER (WHERE f.status NOT IN ('fixed','false_positive') AND f.severity = 'INFO')::int AS open_info,
          count(*) FILTER (WHERE f.sla_due_at IS NOT NULL)::int AS tracked,
          count(*) FILTER (WHERE f.sla_due_at IS NOT NULL AND f.sla_paused_at IS NOT NULL)::int AS paused,
          count(*) FILTER (WHERE f.sla_due_at IS NOT NULL AND ${due} <= ${at})::int AS overdue,
          count(*) FILTER (WHERE f.sla_due_at IS NOT NULL AND f.sla_paused_at IS NULL
            AND f.sla_due_at > ${at} AND f.sla_due_at - ${approachLeadSql('f.sla_days')} <= ${at})::int AS approaching
         FROM findings f WHERE ${filterSql('f', filter, p)}
        GROUP BY 1`,
      p.values,
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      key: String(r['key']),
      open: int(r['open']),
      attention: int(r['attention']),
      inProgress: int(r['in_progress']),
      openBySeverity: {
        CRITICAL: int(r['open_critical']),
        HIGH: int(r['open_high']),
        MEDIUM: int(r['open_medium']),
        LOW: int(r['open_low']),
        INFO: int(r['open_info']),
      },
      tracked: int(r['tracked']),
      paused: int(r['paused']),
      overdue: int(r['overdue']),
      approaching: int(r['approaching']),
    }));
  }

  /** Moves to `fixed` in [from, to), grouped by `axis` (findings deleted since are left out). */
  async closureFigures(
    axis: FigureAxis,
    filter: FigureFilter,
    from: Date,
    to: Date,
  ): Promise<ClosureFigures[]> {
    const p = new Params();
    const rows = (await this.dataSource.query(
      `SELECT ${FINDING_AXIS[axis]}::text AS key, count(*)::int AS fixed,
          count(*) FILTER (WHERE x.due IS NOT NULL)::int AS with_deadline,
          count(*) FILTER (WHERE x.at <= x.due)::int AS in_time,
          avg(${REMEDIATION_HOURS_SQL}) AS mttr_hours
         FROM (${fixedEntriesSql(p.add(from), p.add(to))}) x
         JOIN findings f ON f.id = x.finding_id
        WHERE ${filterSql('f', filter, p)}
        GROUP BY 1`,
      p.values,
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      key: String(r['key']),
      fixed: int(r['fixed']),
      fixedWithDeadline: int(r['with_deadline']),
      fixedInTime: int(r['in_time']),
      mttrHours: hours(r['mttr_hours']),
    }));
  }

  /** Open violations, grouped by `axis`. */
  async openViolations(axis: FigureAxis, filter: FigureFilter): Promise<ViolationFigures[]> {
    const p = new Params();
    const rows = (await this.dataSource.query(
      `SELECT ${VIOLATION_AXIS[axis]}::text AS key,
          count(*) FILTER (WHERE v.kind = 'approaching')::int AS approaching,
          count(*) FILTER (WHERE v.kind = 'breached')::int AS breached
         FROM sla_violations v WHERE v.resolved_at IS NULL AND ${filterSql('v', filter, p)}
        GROUP BY 1`,
      p.values,
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      key: String(r['key']),
      approaching: int(r['approaching']),
      breached: int(r['breached']),
    }));
  }

  /** Names of every project (`project`) or product with its project (`product`). */
  async labels(
    axis: 'project' | 'product',
  ): Promise<Map<string, { name: string; project?: { id: string; name: string } }>> {
    const rows = (await this.dataSource.query(
      axis === 'project'
        ? 'SELECT p.id, p.name FROM projects p ORDER BY p.name, p.id'
        : `SELECT pr.id, pr.name, p.id AS project_id, p.name AS project_name
             FROM products pr JOIN projects p ON p.id = pr.project_id ORDER BY p.name, pr.name, pr.id`,
    )) as Record<string, unknown>[];
    return new Map(
      rows.map((r) => [
        String(r['id']),
        {
          name: String(r['name']),
          project:
            axis === 'product'
              ? { id: String(r['project_id']), name: String(r['project_name']) }
              : undefined,
        },
      ]),
    );
  }

  /**
   * One point per UTC day of [from, to) (and per severity when `bySeverity`): violations
   * opened and moves to `fixed` that day.
   */
  async trend(
    filter: FigureFilter,
    from: Date,
    to: Date,
    bySeverity: boolean,
  ): Promise<TrendPoint[]> {
    const p = new Params();
    const f = p.add(from);
    const t = p.add(to);
    const severities = bySeverity
      ? `CROSS JOIN unnest(${p.add(filter.severities ?? ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'])}::text[]) AS s(severity)`
      : 'CROSS JOIN (SELECT NULL::text AS severity) s';
    const sevKey = bySeverity ? 'f.severity' : 'NULL::text';
    const vSevKey = bySeverity ? 'v.severity' : 'NULL::text';
    const rows = (await this.dataSource.query(
      `WITH days AS (
         SELECT generate_series(date_trunc('day', ${f}::timestamptz AT TIME ZONE 'UTC'),
                                (${t}::timestamptz - interval '1 microsecond') AT TIME ZONE 'UTC',
                                interval '1 day') AS day
       ), fixes AS (
         SELECT date_trunc('day', x.at AT TIME ZONE 'UTC') AS day, ${sevKey} AS severity,
                count(*)::int AS fixed,
                count(*) FILTER (WHERE x.due IS NOT NULL)::int AS with_deadline,
                count(*) FILTER (WHERE x.at <= x.due)::int AS in_time,
                avg(${REMEDIATION_HOURS_SQL}) AS mttr_hours
           FROM (${fixedEntriesSql(f, t)}) x JOIN findings f ON f.id = x.finding_id
          WHERE ${filterSql('f', filter, p)}
          GROUP BY 1, 2
       ), opened AS (
         SELECT date_trunc('day', v.opened_at AT TIME ZONE 'UTC') AS day, ${vSevKey} AS severity,
                count(*) FILTER (WHERE v.kind = 'breached')::int AS breached,
                count(*) FILTER (WHERE v.kind = 'approaching')::int AS approaching
           FROM sla_violations v
          WHERE v.opened_at >= ${f} AND v.opened_at < ${t} AND ${filterSql('v', filter, p)}
          GROUP BY 1, 2
       )
       SELECT d.day AT TIME ZONE 'UTC' AS day, s.severity,
              COALESCE(o.breached, 0) AS breached, COALESCE(o.approaching, 0) AS approaching,
              COALESCE(x.fixed, 0) AS fixed, COALESCE(x.with_deadline, 0) AS with_deadline,
              COALESCE(x.in_time, 0) AS in_time, x.mttr_hours
         FROM days d ${severities}
         LEFT JOIN fixes x ON x.day = d.day AND x.severity IS NOT DISTINCT FROM s.severity
         LEFT JOIN opened o ON o.day = d.day AND o.severity IS NOT DISTINCT FROM s.severity
        ORDER BY d.day, s.severity`,
      p.values,
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      day: r['day'] as Date,
      severity: r['severity'] === null ? null : String(r['severity']),
      breachedOpened: int(r['breached']),
      approachingOpened: int(r['approaching']),
      fixed: int(r['fixed']),
      fixedWithDeadline: int(r['with_deadline']),
      fixedInTime: int(r['in_time']),
      mttrHours: hours(r['mttr_hours']),
    }));
  }
}
