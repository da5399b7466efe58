import type { VisibleScope } from '../../projects/visibility.service';
import type { FindingCursor } from './finding-cursor';
import type { FindingSelection } from './finding-filters';
import {
  FINDING_READ_COLUMNS,
  FINDINGS_READ_FROM,
  scopeSql,
  selectionSql,
  SqlParams,
} from './finding-selection.sql';
import { FindingSortKey, SORT_COLUMNS, SortOrder } from './finding-sort';

export interface FindingListSpec extends FindingSelection {
  scope: VisibleScope;
  sort: FindingSortKey;
  order: SortOrder;
  cursor?: FindingCursor;
  /** Rows to fetch (the page size plus one, to know whether another page exists). */
  fetch: number;
}

/**
 * One keyset-paginated statement: visibility AND filters AND query AND "after the cursor",
 * ordered by (sort key, id). `sort_value` is the key of each row, for the next cursor.
 */
export function findingListSql(spec: FindingListSpec): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  const where = [scopeSql(spec.scope, params), ...selectionSql(spec, params)];
  const column = SORT_COLUMNS[spec.sort];
  const dir = spec.order === 'asc' ? 'ASC' : 'DESC';
  const cmp = spec.order === 'asc' ? '>' : '<';
  if (spec.cursor) {
    const id = `${params.add(spec.cursor.id)}::uuid`;
    where.push(
      column
        ? `(${column.sql}, f.id) ${cmp} (${params.add(spec.cursor.value)}::${column.cast}, ${id})`
        : `f.id ${cmp} ${id}`,
    );
  }
  const orderBy = column ? `${column.sql} ${dir}, f.id ${dir}` : `f.id ${dir}`;
  const sortValue = column ? `${column.sql}::text` : 'NULL';
  const sql = `SELECT ${FINDING_READ_COLUMNS}, ${sortValue} AS sort_value
  FROM ${FINDINGS_READ_FROM}
 WHERE ${where.join('\n   AND ')}
 ORDER BY ${orderBy}
 LIMIT ${params.add(spec.fetch)}`;
  return { sql, params: params.values };
}
