import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Actor } from '../../action-log/finding-action';
import type { VisibleScope } from '../../projects/visibility.service';
import { bulkTargetSql, type BulkTarget } from '../list/bulk-selection';
import { SqlParams } from '../list/finding-selection.sql';
import type { BulkTransitionPlan } from './finding-lifecycle';
import { statusChangeCounts, statusChangeSql, type StatusChangeCounts } from './status-change.sql';

/**
 * Settings of the bulk change's transaction (SET LOCAL: they end with it, the pooled connection
 * keeps its own). No JIT: the statement's estimated cost passes `jit_above_cost` for a few
 * thousand findings and up, and compiling its expressions cost ~140 ms of CPU per call while
 * the work is writing rows, where compiled expressions save nothing (docs/benchmarks.md,
 * "Issue 34: bulk status").
 */
export const BULK_STATUS_SETTINGS = 'SET LOCAL jit = off';

/** The bulk status change: one statement (in a transaction with BULK_STATUS_SETTINGS). */
@Injectable()
export class BulkStatusRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Changes the writable findings of `target` (`statusChangeSql`: lock, update with each
   * finding's own clock effect, one action-log entry per changed finding, violations closed).
   * A target of more than `max` findings changes nothing and gives `undefined`: the statement
   * locks at most `max + 1` of them and checks the size itself before updating (no separate
   * counting query — it cost a scan of the selection on every change).
   */
  async apply(
    scope: VisibleScope,
    target: BulkTarget,
    plan: BulkTransitionPlan,
    actor: Actor,
    now: Date,
    max: number,
    justification: string | null = null,
  ): Promise<StatusChangeCounts | undefined> {
    const params = new SqlParams();
    const { sql, values } = statusChangeSql({
      where: bulkTargetSql(scope, target, params),
      params,
      plan,
      actor,
      now,
      limit: max + 1,
      max,
      justification,
    });
    const counts = statusChangeCounts(
      await this.dataSource.transaction(async (m) => {
        await m.query(BULK_STATUS_SETTINGS);
        return m.query(sql, values);
      }),
    );
    return counts.matched > max ? undefined : counts;
  }
}
