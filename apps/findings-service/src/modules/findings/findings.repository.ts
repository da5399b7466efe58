import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { toFindingView } from './finding-row.mapper';
import type { FindingView } from './finding-view';
import { findingListSql, FindingListSpec } from './list/finding-list.sql';
import { FINDING_READ_COLUMNS, FINDINGS_READ_FROM } from './list/finding-selection.sql';

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
    const rows = (await this.dataSource.query(sql, params)) as Record<string, unknown>[];
    return rows.map((r) => ({
      finding: toFindingView(r),
      sortValue: r['sort_value'] === null ? null : String(r['sort_value']),
    }));
  }

  async findById(id: string): Promise<FindingView | null> {
    const rows = (await this.dataSource.query(
      `SELECT ${FINDING_READ_COLUMNS} FROM ${FINDINGS_READ_FROM} WHERE f.id = $1`,
      [id],
    )) as Record<string, unknown>[];
    return rows[0] ? toFindingView(rows[0]) : null;
  }
}
