import type { ClosureFigures, OpenFigures, ViolationFigures } from './dashboard.repository';

/** The figures of one group (a severity, a project, a product, or everything). */
export interface RemediationFigures {
  open: number;
  attention: number;
  inProgress: number;
  openBySeverity: Record<string, number>;
  tracked: number;
  onTrack: number;
  approaching: number;
  overdue: number;
  paused: number;
  violationsOpenApproaching: number;
  violationsOpenBreached: number;
  fixed: number;
  fixedWithDeadline: number;
  fixedInTime: number;
  /** fixedInTime / fixedWithDeadline in %, one decimal; null when nothing with a deadline was fixed. */
  compliancePercent: number | null;
  mttrHours: number | null;
}

export const EMPTY_FIGURES: RemediationFigures = {
  open: 0,
  attention: 0,
  inProgress: 0,
  openBySeverity: { CRITICAL: 0, HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 },
  tracked: 0,
  onTrack: 0,
  approaching: 0,
  overdue: 0,
  paused: 0,
  violationsOpenApproaching: 0,
  violationsOpenBreached: 0,
  fixed: 0,
  fixedWithDeadline: 0,
  fixedInTime: 0,
  compliancePercent: null,
  mttrHours: null,
};

export function compliancePercent(inTime: number, withDeadline: number): number | null {
  return withDeadline === 0 ? null : Math.round((inTime / withDeadline) * 1000) / 10;
}

/** Joins the three kinds of figures by group key. */
export function figuresByKey(
  open: OpenFigures[],
  closures: ClosureFigures[],
  violations: ViolationFigures[],
): Map<string, RemediationFigures> {
  const out = new Map<string, RemediationFigures>();
  const entry = (key: string): RemediationFigures => {
    let e = out.get(key);
    if (!e) {
      e = { ...EMPTY_FIGURES, openBySeverity: { ...EMPTY_FIGURES.openBySeverity } };
      out.set(key, e);
    }
    return e;
  };
  for (const o of open) {
    Object.assign(entry(o.key), {
      open: o.open,
      attention: o.attention,
      inProgress: o.inProgress,
      openBySeverity: o.openBySeverity,
      tracked: o.tracked,
      approaching: o.approaching,
      overdue: o.overdue,
      paused: o.paused,
      onTrack: o.tracked - o.overdue - o.approaching,
    });
  }
  for (const c of closures) {
    Object.assign(entry(c.key), {
      fixed: c.fixed,
      fixedWithDeadline: c.fixedWithDeadline,
      fixedInTime: c.fixedInTime,
      compliancePercent: compliancePercent(c.fixedInTime, c.fixedWithDeadline),
      mttrHours: c.mttrHours,
    });
  }
  for (const v of violations) {
    Object.assign(entry(v.key), {
      violationsOpenApproaching: v.approaching,
      violationsOpenBreached: v.breached,
    });
  }
  return out;
}

/** The sum of several groups (MTTR weighted by the fixes of each group). */
export function totalOf(groups: Iterable<RemediationFigures>): RemediationFigures {
  const t: RemediationFigures = {
    ...EMPTY_FIGURES,
    openBySeverity: { ...EMPTY_FIGURES.openBySeverity },
  };
  let hoursTimesFixed = 0;
  for (const g of groups) {
    for (const k of [
      'open',
      'attention',
      'inProgress',
      'tracked',
      'onTrack',
      'approaching',
      'overdue',
      'paused',
      'violationsOpenApproaching',
      'violationsOpenBreached',
      'fixed',
      'fixedWithDeadline',
      'fixedInTime',
    ] as const) {
      t[k] += g[k];
    }
    for (const [sev, n] of Object.entries(g.openBySeverity)) {
      t.openBySeverity[sev] = (t.openBySeverity[sev] ?? 0) + n;
    }
    if (g.mttrHours !== null) hoursTimesFixed += g.mttrHours * g.fixed;
  }
  t.compliancePercent = compliancePercent(t.fixedInTime, t.fixedWithDeadline);
  t.mttrHours = t.fixed === 0 ? null : Math.round((hoursTimesFixed / t.fixed) * 10) / 10;
  return t;
}
