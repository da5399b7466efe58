import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { FindingEntity } from '../finding.entity';

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
    @InjectRepository(FindingEntity) private readonly findings: Repository<FindingEntity>,
  ) {}

  /** Inserts unless the identity exists in the product; returns the finding and whether new. */
  async insertOrGet(
    finding: NewManualFinding,
  ): Promise<{ finding: FindingEntity; created: boolean }> {
    const result = await this.findings
      .createQueryBuilder()
      .insert()
      // jsonb columns are typed Record<string, unknown>, which QueryDeepPartialEntity rejects.
      .values(finding as QueryDeepPartialEntity<FindingEntity>)
      .orIgnore()
      .returning(['id'])
      .execute();
    const created = (result.raw as { id: string }[]).length > 0;
    const row = await this.findings.findOneByOrFail({
      productId: finding.productId,
      identityHash: finding.identityHash,
    });
    return { finding: row, created };
  }
}
