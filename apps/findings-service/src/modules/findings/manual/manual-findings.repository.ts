import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { Actor } from '../../action-log/finding-action';
import { ActionLogWriter } from '../../action-log/action-log.writer';
import { FindingEntity } from '../finding.entity';
import { lockProductForWrite } from '../product-write-lock';

export type NewManualFinding = Omit<
  FindingEntity,
  | 'id'
  | 'product'
  | 'status'
  | 'statusChangedAt'
  | 'tags'
  | 'enrichmentTags'
  | 'createdAt'
  | 'updatedAt'
>;

@Injectable()
export class ManualFindingsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly actionLog: ActionLogWriter,
  ) {}

  /**
   * Inserts unless the identity exists in the product; returns the finding and whether new,
   * or undefined when the product no longer exists. A new finding gets its `created`
   * action-log entry in the same transaction.
   */
  insertOrGet(
    finding: NewManualFinding,
    actor: Actor,
  ): Promise<{ finding: FindingEntity; created: boolean } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await lockProductForWrite(manager, finding.productId))) return undefined;
      const findings = manager.getRepository(FindingEntity);
      const result = await findings
        .createQueryBuilder()
        .insert()
        // jsonb columns are typed Record<string, unknown>, which QueryDeepPartialEntity rejects.
        .values(finding as QueryDeepPartialEntity<FindingEntity>)
        .orIgnore()
        .returning(['id'])
        .execute();
      const created = (result.raw as { id: string }[]).length > 0;
      const row = await findings.findOneByOrFail({
        productId: finding.productId,
        identityHash: finding.identityHash,
      });
      if (created) {
        await this.actionLog.write(manager, [
          {
            findingId: row.id,
            projectId: row.projectId,
            actor,
            action: 'created',
            to: { status: row.status, severity: row.severity, source: 'manual' },
          },
        ]);
      }
      return { finding: row, created };
    });
  }
}
