import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { columnReaders, LEAN_TYPE_PARSERS, pgPool, type ColumnReader } from '@platform/database';
import { DataSource } from 'typeorm';
import { toFindingView } from './finding-row.mapper';
import type { FindingView } from './finding-view';
import type { FindingSelection } from './list/finding-filters';
import {
  findingCountSql,
  findingGroupsSql,
  type FindingGroupsSpec,
} from './list/finding-groups.sql';
import { findingListSql, FindingListSpec } from './list/finding-list.sql';
import { FINDING_DETAIL_COLUMNS, FINDINGS_READ_FROM } from './list/finding-selection.sql';
import type { VisibleScope } from '../projects/visibility.service';

/** One group of GET /findings/groups. */
export interface FindingGroupRow {
  key: string;
  title: string;
  count: number;
  bySeverity: Record<'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO', number>;
}

export interface FindingListRow {
  finding: FindingView;
  /** The row's sort key in text form (null when sorting by id), for the next cursor. */
  sortValue: string | null;
}

/** Reads findings for the API (list and single finding). */
@Injectable()
export class FindingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(spec: FindingListSpec): Promise<FindingListRow[]> {
    const { sql, params } = findingListSql(spec);
    const rows = await this.read(sql, params);
    return rows.map((r) => {
      const sortValue = r('sort_value');
      return {
        finding: toFindingView(r),
        sortValue: sortValue === null || sortValue === undefined ? null : String(sortValue),
      };
    });
  }

  async findById(id: string): Promise<FindingView | null> {
    const rows = await this.read(
      `SELECT ${FINDING_DETAIL_COLUMNS} FROM ${FINDINGS_READ_FROM} WHERE f.id = $1`,
      [id],
    );
    return rows[0] ? toFindingView(rows[0]) : null;
  }

  /**
   * Finding rows straight from the pool with node-pg's lean parsers for dates and text arrays,
   * as arrays read by column name: the same values as through TypeORM's `query`, less garbage
   * (a 50-row list request allocated 1 270 → ~1 030 KB with the one-Buffer reply, → ~760 KB
   * with array rows; docs/benchmarks.md#issue-34-array-rows).
   */
  private async read(text: string, values: unknown[]): Promise<ColumnReader[]> {
    const result = await pgPool(this.dataSource).query<unknown[]>({
      text,
      values,
      types: LEAN_TYPE_PARSERS,
      rowMode: 'array',
    });
    return columnReaders(result.fields, result.rows);
  }

  async groups(spec: FindingGroupsSpec): Promise<FindingGroupRow[]> {
    const { sql, params } = findingGroupsSql(spec);
    const rows = (await this.dataSource.query(sql, params)) as Record<string, unknown>[];
    return rows.map((r) => ({
      key: String(r['key']),
      title: String(r['title'] ?? r['key']),
      count: Number(r['count']),
      bySeverity: {
        CRITICAL: Number(r['critical']),
        HIGH: Number(r['high']),
        MEDIUM: Number(r['medium']),
        LOW: Number(r['low']),
        INFO: Number(r['info']),
      },
    }));
  }

  /**
   * The selection's size, exact up to `cap` (the count stops after cap + 1 rows); above it the
   * planner's row estimate of the same statement, never below cap + 1.
   */
  async count(
    spec: FindingSelection & { scope: VisibleScope },
    cap: number,
  ): Promise<{ count: number; exact: boolean }> {
    const { sql, params, selectSql } = findingCountSql(spec, cap + 1);
    const [row] = (await this.dataSource.query(sql, params)) as { count: number }[];
    const counted = row?.count ?? 0;
    if (counted <= cap) return { count: counted, exact: true };
    const [plan] = (await this.dataSource.query(
      `EXPLAIN (FORMAT JSON) ${selectSql}`,
      params.slice(0, -1),
    )) as { 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }[];
    const estimate = Math.round(plan?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
    return { count: Math.max(estimate, cap + 1), exact: false };
  }
}
