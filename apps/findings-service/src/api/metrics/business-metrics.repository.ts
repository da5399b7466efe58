import { Injectable } from '@nestjs/common';
import { pgPool } from '@platform/database';
import { DataSource } from 'typeorm';

export interface FindingCount {
  severity: string;
  status: string;
  count: number;
}

export interface PoolStats {
  open: number;
  busy: number;
  idle: number;
}

/** The business metrics' reads: two grouped counts and the connection pool's own counters. */
@Injectable()
export class BusinessMetricsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Findings by severity and status: an index-only scan of ix_findings_severity_status at
   * scale (see tools/bench/metrics-collect).
   */
  async findingsBySeverityAndStatus(): Promise<FindingCount[]> {
    const rows = (await this.dataSource.query(
      `SELECT severity, status, count(*)::bigint AS count FROM findings
        WHERE merged_into_id IS NULL GROUP BY severity, status`,
    )) as { severity: string; status: string; count: string }[];
    return rows.map((r) => ({ severity: r.severity, status: r.status, count: Number(r.count) }));
  }

  /** Open (unresolved) remediation-deadline violations by severity. */
  async openViolationsBySeverity(): Promise<Map<string, number>> {
    const rows = (await this.dataSource.query(
      `SELECT severity, count(*)::bigint AS count FROM sla_violations
        WHERE resolved_at IS NULL GROUP BY severity`,
    )) as { severity: string; count: string }[];
    return new Map(rows.map((r) => [r.severity, Number(r.count)]));
  }

  /** This process's pool: connections open, checked out (busy) and idle. */
  poolStats(): PoolStats {
    const pool = pgPool(this.dataSource);
    const open = pool.totalCount;
    const idle = pool.idleCount;
    return { open, busy: open - idle, idle };
  }
}
