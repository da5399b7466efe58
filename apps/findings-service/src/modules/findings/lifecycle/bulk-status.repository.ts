import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Actor } from '../../action-log/finding-action';
import type { VisibleScope } from '../../projects/visibility.service';
import { FindingsApiError } from '../findings-api.errors';
import { bulkTargetSql, type BulkTarget } from '../list/bulk-selection';
import { FINDINGS_FROM, SqlParams } from '../list/finding-selection.sql';
import type { BulkTransitionPlan } from './finding-lifecycle';
import { statusChangeCounts, statusChangeSql, type StatusChangeCounts } from './status-change.sql';

/** The bulk status change: one transaction, one counting query and one statement. */
@Injectable()
export class BulkStatusRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Changes the writable findings of `target` (`statusChangeSql`: lock, update with each
   * finding's own clock effect, one action-log entry per changed finding, violations closed).
   * A target of more than `max` findings changes nothing: `undefined` when counted before
   * (no lock taken), `bulk_selection_too_large` (rolled back) if it grew in between.
   */
  apply(
    scope: VisibleScope,
    target: BulkTarget,
    plan: BulkTransitionPlan,
    actor: Actor,
    now: Date,
    max: number,
  ): Promise<StatusChangeCounts | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const params = new SqlParams();
      const where = bulkTargetSql(scope, target, params);
      const [count] = (await manager.query(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${FINDINGS_FROM}
          WHERE ${where.join(' AND ')} LIMIT ${max + 1}) s`,
        [...params.values],
      )) as { n: number }[];
      if ((count?.n ?? 0) > max) return undefined;
      const { sql, values } = statusChangeSql({
        where,
        params,
        plan,
        actor,
        now,
        limit: max + 1,
      });
      const counts = statusChangeCounts(await manager.query(sql, values));
      if (counts.matched > max) throw new FindingsApiError('bulk_selection_too_large', { max });
      return counts;
    });
  }
}
