import { ApiProperty } from '@nestjs/swagger';
import type { TrendPoint } from '../dashboard.repository';
import { compliancePercent, type RemediationFigures } from '../dashboard-figures';
import type { ComplianceView, GroupStats } from '../dashboard.service';

const nullableNumber = { nullable: true, type: Number } as const;

export class OpenBySeverityDto {
  @ApiProperty() CRITICAL!: number;
  @ApiProperty() HIGH!: number;
  @ApiProperty() MEDIUM!: number;
  @ApiProperty() LOW!: number;
  @ApiProperty() INFO!: number;
}

/** Figures of one group (docs/findings-service/lifecycle.md#dashboards). */
export class RemediationFiguresDto {
  @ApiProperty({ description: 'Not closed (open in the wide sense)' }) open!: number;
  @ApiProperty({ description: 'In the attention group' }) attention!: number;
  @ApiProperty() in_progress!: number;
  @ApiProperty({ type: OpenBySeverityDto }) open_by_severity!: OpenBySeverityDto;
  @ApiProperty({ description: 'Not closed, remediation clock started, with a deadline' })
  sla_tracked!: number;
  @ApiProperty({ description: 'Tracked, neither overdue nor approaching' }) sla_on_track!: number;
  @ApiProperty({ description: 'Running clock within its approach lead of the deadline' })
  sla_approaching!: number;
  @ApiProperty({ description: 'Deadline passed (a paused clock counts its deadline as of now)' })
  sla_overdue!: number;
  @ApiProperty({ description: 'Clock paused (waiting, risk_accepted, needs_review)' })
  sla_paused!: number;
  @ApiProperty() violations_open_approaching!: number;
  @ApiProperty() violations_open_breached!: number;
  @ApiProperty({ description: 'Moves to fixed in the period (action log)' }) fixed!: number;
  @ApiProperty({ description: 'Of those, with a started clock (a deadline)' })
  fixed_with_deadline!: number;
  @ApiProperty({ description: 'Of those, fixed before the deadline' }) fixed_in_time!: number;
  @ApiProperty({ ...nullableNumber, description: 'fixed_in_time / fixed_with_deadline, %' })
  compliance_percent!: number | null;
  @ApiProperty({
    ...nullableNumber,
    description: 'Mean time to remediate: hours from detection (or re-detection) to fixed',
  })
  mttr_hours!: number | null;

  static from(f: RemediationFigures): RemediationFiguresDto {
    return {
      open: f.open,
      attention: f.attention,
      in_progress: f.inProgress,
      open_by_severity: {
        CRITICAL: f.openBySeverity['CRITICAL'] ?? 0,
        HIGH: f.openBySeverity['HIGH'] ?? 0,
        MEDIUM: f.openBySeverity['MEDIUM'] ?? 0,
        LOW: f.openBySeverity['LOW'] ?? 0,
        INFO: f.openBySeverity['INFO'] ?? 0,
      },
      sla_tracked: f.tracked,
      sla_on_track: f.onTrack,
      sla_approaching: f.approaching,
      sla_overdue: f.overdue,
      sla_paused: f.paused,
      violations_open_approaching: f.violationsOpenApproaching,
      violations_open_breached: f.violationsOpenBreached,
      fixed: f.fixed,
      fixed_with_deadline: f.fixedWithDeadline,
      fixed_in_time: f.fixedInTime,
      compliance_percent: f.compliancePercent,
      mttr_hours: f.mttrHours,
    };
  }
}

export class SeverityFiguresDto extends RemediationFiguresDto {
  @ApiProperty({ enum: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] }) severity!: string;
}

export class SlaComplianceDto {
  @ApiProperty({ format: 'date-time' }) generated_at!: string;
  @ApiProperty({ format: 'date-time', description: 'Start of the period of the event figures' })
  from!: string;
  @ApiProperty({ format: 'date-time' }) to!: string;
  @ApiProperty() days!: number;
  @ApiProperty({ type: RemediationFiguresDto }) overall!: RemediationFiguresDto;
  @ApiProperty({ type: [SeverityFiguresDto] }) by_severity!: SeverityFiguresDto[];

  static from(v: ComplianceView): SlaComplianceDto {
    return {
      generated_at: v.generatedAt.toISOString(),
      from: v.window.from.toISOString(),
      to: v.window.to.toISOString(),
      days: v.window.days,
      overall: RemediationFiguresDto.from(v.overall),
      by_severity: v.bySeverity.map((s) => ({
        severity: s.severity,
        ...RemediationFiguresDto.from(s),
      })),
    };
  }
}

/** One day (UTC) of the trend; flat, with the day both as a date and in epoch milliseconds. */
export class SlaTrendPointDto {
  @ApiProperty({ example: '2025-03-01', description: 'UTC day' }) date!: string;
  @ApiProperty({ description: 'Start of the day, epoch milliseconds' }) timestamp!: number;
  @ApiProperty({ nullable: true, type: String, description: 'With group_by=severity' })
  severity!: string | null;
  @ApiProperty({ description: 'breached violations opened that day' }) breached_opened!: number;
  @ApiProperty() approaching_opened!: number;
  @ApiProperty({ description: 'Moves to fixed that day' }) fixed!: number;
  @ApiProperty() fixed_with_deadline!: number;
  @ApiProperty() fixed_in_time!: number;
  @ApiProperty(nullableNumber) compliance_percent!: number | null;
  @ApiProperty(nullableNumber) mttr_hours!: number | null;

  static from(p: TrendPoint): SlaTrendPointDto {
    return {
      date: p.day.toISOString().slice(0, 10),
      timestamp: p.day.getTime(),
      severity: p.severity,
      breached_opened: p.breachedOpened,
      approaching_opened: p.approachingOpened,
      fixed: p.fixed,
      fixed_with_deadline: p.fixedWithDeadline,
      fixed_in_time: p.fixedInTime,
      compliance_percent: compliancePercent(p.fixedInTime, p.fixedWithDeadline),
      mttr_hours: p.mttrHours,
    };
  }
}

export class SlaTrendDto {
  @ApiProperty({ format: 'date-time' }) from!: string;
  @ApiProperty({ format: 'date-time' }) to!: string;
  @ApiProperty() days!: number;
  @ApiProperty({ enum: ['none', 'severity'] }) group_by!: string;
  @ApiProperty({ type: [SlaTrendPointDto] }) points!: SlaTrendPointDto[];
}

/** A flat row for the dashboard tool: no nested objects, timestamps in epoch milliseconds. */
export class ToolStatsRowDto {
  @ApiProperty({ description: 'When the figures were taken, epoch milliseconds' })
  timestamp!: number;
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty() project_name!: string;
  @ApiProperty() open!: number;
  @ApiProperty() attention!: number;
  @ApiProperty() in_progress!: number;
  @ApiProperty() open_critical!: number;
  @ApiProperty() open_high!: number;
  @ApiProperty() open_medium!: number;
  @ApiProperty() open_low!: number;
  @ApiProperty() open_info!: number;
  @ApiProperty() sla_tracked!: number;
  @ApiProperty() sla_on_track!: number;
  @ApiProperty() sla_approaching!: number;
  @ApiProperty() sla_overdue!: number;
  @ApiProperty() sla_paused!: number;
  @ApiProperty() violations_open_approaching!: number;
  @ApiProperty() violations_open_breached!: number;
  @ApiProperty() fixed!: number;
  @ApiProperty() fixed_in_time!: number;
  @ApiProperty(nullableNumber) compliance_percent!: number | null;
  @ApiProperty(nullableNumber) mttr_hours!: number | null;
}

export class ToolProductStatsRowDto extends ToolStatsRowDto {
  @ApiProperty({ format: 'uuid' }) product_id!: string;
  @ApiProperty() product_name!: string;
}

export function toolStatsRow(
  g: GroupStats,
  axis: 'project' | 'product',
  at: Date,
): ToolStatsRowDto | ToolProductStatsRowDto {
  const project =
    axis === 'project' ? { id: g.id, name: g.name } : (g.project ?? { id: '', name: '' });
  const row: ToolStatsRowDto = {
    timestamp: at.getTime(),
    project_id: project.id,
    project_name: project.name,
    open: g.open,
    attention: g.attention,
    in_progress: g.inProgress,
    open_critical: g.openBySeverity['CRITICAL'] ?? 0,
    open_high: g.openBySeverity['HIGH'] ?? 0,
    open_medium: g.openBySeverity['MEDIUM'] ?? 0,
    open_low: g.openBySeverity['LOW'] ?? 0,
    open_info: g.openBySeverity['INFO'] ?? 0,
    sla_tracked: g.tracked,
    sla_on_track: g.onTrack,
    sla_approaching: g.approaching,
    sla_overdue: g.overdue,
    sla_paused: g.paused,
    violations_open_approaching: g.violationsOpenApproaching,
    violations_open_breached: g.violationsOpenBreached,
    fixed: g.fixed,
    fixed_in_time: g.fixedInTime,
    compliance_percent: g.compliancePercent,
    mttr_hours: g.mttrHours,
  };
  return axis === 'project' ? row : { ...row, product_id: g.id, product_name: g.name };
}

/** One day and severity of the SLA series, flat (`time` ISO and `timestamp` epoch ms). */
export class ToolSlaMetricsRowDto {
  @ApiProperty({ description: 'Start of the UTC day, epoch milliseconds' }) timestamp!: number;
  @ApiProperty({ format: 'date-time' }) time!: string;
  @ApiProperty({ enum: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] }) severity!: string;
  @ApiProperty() breached_opened!: number;
  @ApiProperty() approaching_opened!: number;
  @ApiProperty() fixed!: number;
  @ApiProperty() fixed_with_deadline!: number;
  @ApiProperty() fixed_in_time!: number;
  @ApiProperty(nullableNumber) compliance_percent!: number | null;
  @ApiProperty(nullableNumber) mttr_hours!: number | null;

  static from(p: TrendPoint): ToolSlaMetricsRowDto {
    return {
      timestamp: p.day.getTime(),
      time: p.day.toISOString(),
      severity: p.severity ?? '',
      breached_opened: p.breachedOpened,
      approaching_opened: p.approachingOpened,
      fixed: p.fixed,
      fixed_with_deadline: p.fixedWithDeadline,
      fixed_in_time: p.fixedInTime,
      compliance_percent: compliancePercent(p.fixedInTime, p.fixedWithDeadline),
      mttr_hours: p.mttrHours,
    };
  }
}
