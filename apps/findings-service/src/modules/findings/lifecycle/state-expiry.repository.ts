import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Actor } from '../../action-log/finding-action';
import { SqlParams } from '../list/finding-selection.sql';
import type { DueField, TransitionPlan } from './finding-lifecycle';
import { statusChangeCounts, statusChangeSql } from './status-change.sql';

/** Findings moved by one statement of an expiry task (the task repeats until none is left). */
export const EXPIRY_CHUNK = 5_000;

/** The periodic expiry moves, set-based in chunks (status-change.sql.ts). */
@Injectable()
export class StateExpiryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Moves up to `EXPIRY_CHUNK` findings in `plan.from` whose `dueField` has passed at `now`
   * (partial indexes on both dates); findings another transaction holds are skipped and come
   * back at the next run. Returns how many moved.
   */
  async expireChunk(
    plan: Pick<TransitionPlan, 'from' | 'to' | 'fields' | 'clock' | 'closesViolations'>,
    dueField: DueField,
    actor: Actor,
    now: Date,
  ): Promise<number> {
    const params = new SqlParams();
    const where = [
      `f.status = ${params.add(plan.from)}::text`,
      `f.${dueField} <= ${params.add(now)}::timestamptz`,
      // A merged finding keeps its state until unmerged (docs/findings-service/merge.md).
      'f.merged_into_id IS NULL',
    ];
    const { sql, values } = statusChangeSql({
      where,
      params,
      plan,
      actor,
      now,
      limit: EXPIRY_CHUNK,
      skipLocked: true,
    });
    return this.dataSource.transaction(async (manager) => {
      return statusChangeCounts(await manager.query(sql, values)).changed;
    });
  }
}
