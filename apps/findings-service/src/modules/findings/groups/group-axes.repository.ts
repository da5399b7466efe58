import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { VisibleScope } from '../../projects/visibility.service';
import type { FindingView } from '../finding-view';
import type { GroupAxis } from './group-axis';
import { groupAxisCountsSql } from './group-axes.sql';

/** Reads the sizes of a finding's groups. */
@Injectable()
export class GroupAxesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Members per axis the finding has a value on (itself included). */
  async counts(scope: VisibleScope, finding: FindingView): Promise<Map<GroupAxis, number>> {
    const { sql, params, axes } = groupAxisCountsSql(scope, finding);
    const counts = new Map<GroupAxis, number>();
    if (axes.length === 0) return counts;
    const [row] = (await this.dataSource.query(sql, params)) as Record<string, number>[];
    for (const axis of axes) counts.set(axis, Number(row?.[axis] ?? 0));
    return counts;
  }
}
