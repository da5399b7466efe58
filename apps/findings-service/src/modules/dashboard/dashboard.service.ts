import { Injectable } from '@nestjs/common';
import { Clock } from '../../app/clock';
import {
  DashboardRepository,
  type FigureAxis,
  type FigureFilter,
  type TrendPoint,
} from './dashboard.repository';
import { figuresByKey, totalOf, EMPTY_FIGURES, type RemediationFigures } from './dashboard-figures';

const DAY_MS = 86_400_000;
export const SEVERITY_ORDER = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;

/** The period of the figures that count events (fixes, violations opened). */
export interface FigureWindow {
  from: Date;
  to: Date;
  days: number;
}

export interface ComplianceView {
  generatedAt: Date;
  window: FigureWindow;
  overall: RemediationFigures;
  bySeverity: (RemediationFigures & { severity: string })[];
}

export interface GroupStats extends RemediationFigures {
  id: string;
  name: string;
  project?: { id: string; name: string };
}

/**
 * Remediation figures for the dashboards (`read_metrics`, which is only ever granted globally:
 * the figures cover every project unless a filter narrows them). "Now" figures come from the
 * findings' clocks, period figures from the action log and the violations of the last `days`.
 */
@Injectable()
export class DashboardService {
  constructor(
    private readonly figures: DashboardRepository,
    private readonly clock: Clock,
  ) {}

  window(days: number): FigureWindow {
    const to = this.clock.now();
    return { from: new Date(to.getTime() - days * DAY_MS), to, days };
  }

  async compliance(filter: FigureFilter, days: number): Promise<ComplianceView> {
    const window = this.window(days);
    const bySeverity = await this.grouped('severity', filter, window);
    const rows = SEVERITY_ORDER.filter(
      (s) => !filter.severities || filter.severities.includes(s),
    ).map((severity) => ({ severity, ...(bySeverity.get(severity) ?? EMPTY_FIGURES) }));
    return { generatedAt: window.to, window, overall: totalOf(rows), bySeverity: rows };
  }

  async trend(filter: FigureFilter, days: number, bySeverity: boolean): Promise<TrendPoint[]> {
    const window = this.window(days);
    return this.figures.trend(filter, window.from, window.to, bySeverity);
  }

  /** One row per project (`project`) or product, every one listed, zeros included. */
  async groupStats(axis: 'project' | 'product', days: number): Promise<GroupStats[]> {
    const window = this.window(days);
    const [labels, figures] = await Promise.all([
      this.figures.labels(axis),
      this.grouped(axis, {}, window),
    ]);
    return [...labels].map(([id, label]) => ({
      id,
      name: label.name,
      project: label.project,
      ...(figures.get(id) ?? EMPTY_FIGURES),
    }));
  }

  private async grouped(
    axis: FigureAxis,
    filter: FigureFilter,
    window: FigureWindow,
  ): Promise<Map<string, RemediationFigures>> {
    const [open, closures, violations] = await Promise.all([
      this.figures.openFigures(axis, filter, window.to),
      this.figures.closureFigures(axis, filter, window.from, window.to),
      this.figures.openViolations(axis, filter),
    ]);
    return figuresByKey(open, closures, violations);
  }
}
