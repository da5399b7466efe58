import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { VisibleScope } from '../projects/visibility.service';
import { FINDING_STATUSES, type FindingStatus } from '../findings/finding-status';
import { SEVERITIES, type FindingSelection, type Severity } from '../findings/list/finding-filters';
import { inventoryRollupSql, rollupMemberIdsSql, type RollupSpec } from './inventory-rollup.sql';
import { countsAnswer } from './rollup-counts.sql';

export interface RollupRow {
  key: string;
  total: number;
  bySeverity: Record<Severity, number>;
  byStatus: Record<FindingStatus, number>;
  /** The row's project when all its findings lie in one; null when it spans several. */
  projectId: string | null;
}

/**
 * Reads roll-up rows and the members of a row (findings is read, never written, here). Before
 * reading the precomputed counts it folds their committed deltas (`findings_rollup_fold()`,
 * migration 1795607500000: skipped at once when another session is folding; the answer is the
 * same either way, the read sums counts and deltas) so that the read stays small.
 */
@Injectable()
export class InventoryRollupRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async rows(spec: RollupSpec): Promise<RollupRow[]> {
    if (countsAnswer(spec.scope, spec))
      await this.dataSource.query('SELECT findings_rollup_fold()');
    const { sql, params } = inventoryRollupSql(spec);
    const rows = (await this.dataSource.query(sql, params)) as Record<string, unknown>[];
    return rows.map((r) => ({
      key: String(r['key']),
      total: Number(r['total']),
      bySeverity: Object.fromEntries(
        SEVERITIES.map((s) => [s, Number(r[`sev_${s.toLowerCase()}`])]),
      ) as Record<Severity, number>,
      byStatus: Object.fromEntries(
        FINDING_STATUSES.map((s) => [s, Number(r[`st_${s}`])]),
      ) as Record<FindingStatus, number>,
      projectId: r['project_id'] === null ? null : String(r['project_id']),
    }));
  }

  async memberIds(
    scope: VisibleScope,
    selection: FindingSelection,
    limit: number,
  ): Promise<{ id: string; projectId: string }[]> {
    const { sql, params } = rollupMemberIdsSql(scope, selection, limit);
    const rows = (await this.dataSource.query(sql, params)) as { id: string; project_id: string }[];
    return rows.map((r) => ({ id: r.id, projectId: r.project_id }));
  }
}
