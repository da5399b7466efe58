import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { objectReader } from '@platform/database';
import { DataSource, EntityManager } from 'typeorm';
import { ActionLogWriter } from '../action-log/action-log.writer';
import type { ActionLogEntry, Actor } from '../action-log/finding-action';
import { toFindingView } from './finding-row.mapper';
import type { FindingView } from './finding-view';
import type { TransitionPlan } from './lifecycle/finding-lifecycle';
import {
  statusChangeCounts,
  statusChangeSql,
  type StatusChangeCounts,
} from './lifecycle/status-change.sql';
import {
  FINDING_DETAIL_COLUMNS,
  FINDINGS_READ_FROM,
  SqlParams,
} from './list/finding-selection.sql';
import type { TriageState } from './triage/triage-rules';

/** Writes of one locked finding; its action-log entries commit in the same transaction. */
export class FindingChangeTx {
  constructor(
    private readonly manager: EntityManager,
    private readonly actionLog: ActionLogWriter,
  ) {}

  /** Status move of this finding with its clock effect, action-log entry and violations. */
  async changeStatus(
    id: string,
    plan: TransitionPlan,
    actor: Actor,
    now: Date,
    justification: string | null = null,
  ): Promise<StatusChangeCounts> {
    const params = new SqlParams();
    const { sql, values } = statusChangeSql({
      where: [`f.id = ${params.add(id)}::uuid`],
      params,
      plan,
      actor,
      now,
      justification,
    });
    return statusChangeCounts(await this.manager.query(sql, values));
  }

  async updateAssignment(
    id: string,
    s: Pick<TriageState, 'assigneeId' | 'triageComment'>,
    now: Date,
  ): Promise<void> {
    await this.manager.query(
      `UPDATE findings SET assignee_id = $2, triage_comment = $3, updated_at = $4 WHERE id = $1`,
      [id, s.assigneeId, s.triageComment, now],
    );
  }

  /** The finding as this transaction now sees it. */
  async reload(id: string): Promise<FindingView | undefined> {
    const rows = (await this.manager.query(
      `SELECT ${FINDING_DETAIL_COLUMNS} FROM ${FINDINGS_READ_FROM} WHERE f.id = $1`,
      [id],
    )) as Record<string, unknown>[];
    return rows[0] ? toFindingView(objectReader(rows[0])) : undefined;
  }

  async setTags(id: string, tags: string[]): Promise<void> {
    await this.manager.query(`UPDATE findings SET tags = $2, updated_at = now() WHERE id = $1`, [
      id,
      tags,
    ]);
  }

  /**
   * The finding and its comment thread (the action log is kept). Findings merged into it are
   * detached first: they return to the lists (docs/findings-service/merge.md).
   */
  async delete(id: string): Promise<void> {
    await this.manager.query(
      `UPDATE findings SET merged_into_id = NULL, merged_at = NULL, updated_at = now()
        WHERE merged_into_id = $1`,
      [id],
    );
    await this.manager.query(`DELETE FROM findings WHERE id = $1`, [id]);
    await this.manager.query(`DELETE FROM finding_comments WHERE finding_id = $1`, [id]);
  }

  log(entries: ActionLogEntry[]): Promise<void> {
    return this.actionLog.write(this.manager, entries);
  }
}

/** Changes of single findings (triage, tags, delete), each in one transaction with its log. */
@Injectable()
export class FindingChangesRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly actionLog: ActionLogWriter,
  ) {}

  /** Locks the finding (FOR UPDATE) and runs `fn`; `undefined` when the finding does not exist. */
  withLockedFinding<T>(
    id: string,
    fn: (finding: FindingView, tx: FindingChangeTx) => Promise<T>,
  ): Promise<T | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const rows = (await manager.query(
        `SELECT ${FINDING_DETAIL_COLUMNS} FROM ${FINDINGS_READ_FROM} WHERE f.id = $1 FOR UPDATE OF f`,
        [id],
      )) as Record<string, unknown>[];
      if (!rows[0]) return undefined;
      return fn(toFindingView(objectReader(rows[0])), new FindingChangeTx(manager, this.actionLog));
    });
  }

  /** An active user who is a global admin or a member of the project. */
  async isAssignable(userId: string, projectId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM users u
        WHERE u.id = $1 AND u.is_active
          AND (u.is_admin OR EXISTS (
            SELECT 1 FROM project_members m WHERE m.user_id = u.id AND m.project_id = $2))`,
      [userId, projectId],
    )) as unknown[];
    return rows.length > 0;
  }
}
