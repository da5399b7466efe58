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
import { containsPattern } from '../query';
import {
  drivingSearchTerm,
  orderedCandidatesSql,
  withoutDrivingTerm,
} from '../search/finding-search-driver.sql';

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
 * ordered by (sort key, id). `sort_value` is the key of each row, for the next cursor. In
 * `created_at` order with a rare term through the word index, the rows come from the term's
 * ordered candidates (finding-search-driver.sql.ts), each checked against the same conditions.
 */
export function findingListSql(spec: FindingListSpec): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  // A rare term through the words, in created_at order: the page walks its ordered postings.
  const driver = drivingSearchTerm(spec, spec.sort);
  const selection = driver ? withoutDrivingTerm(spec, driver) : spec;
  const where = [scopeSql(spec.scope, params), ...selectionSql(selection, params)];
  const column = SORT_COLUMNS[spec.sort];
  const dir = spec.order === 'asc' ? 'ASC' : 'DESC';
  const cmp = spec.order === 'asc' ? '>' : '<';
  let after: { value: string; id: string } | undefined;
  if (spec.cursor) {
    const id = params.add(spec.cursor.id);
    if (column) {
      after = { value: params.add(spec.cursor.value), id };
      where.push(`(${column.sql}, f.id) ${cmp} (${after.value}::${column.cast}, ${id}::uuid)`);
    } else where.push(`f.id ${cmp} ${id}::uuid`);
  }
  const sortValue = column ? `${column.sql}::text` : 'NULL';
  if (driver) {
    const candidates = orderedCandidatesSql(
      params.add(containsPattern(driver)),
      spec.order,
      after,
      spec.indexedSearch?.get(driver)?.frontier,
    );
    const sql = `SELECT x.* FROM ${candidates} c
  CROSS JOIN LATERAL (SELECT ${FINDING_READ_COLUMNS}, ${sortValue} AS sort_value
  FROM ${FINDINGS_READ_FROM}
 WHERE f.id = c.id AND f.created_at = c.created_at
   AND ${where.join('\n   AND ')}
 OFFSET 0) x
 ORDER BY c.created_at ${dir}, c.id ${dir}
 LIMIT ${params.add(spec.fetch)}`;
    return { sql, params: params.values };
  }
  const orderBy = column ? `${column.sql} ${dir}, f.id ${dir}` : `f.id ${dir}`;
  const sql = `SELECT ${FINDING_READ_COLUMNS}, ${sortValue} AS sort_value
  FROM ${FINDINGS_READ_FROM}
 WHERE ${where.join('\n   AND ')}
 ORDER BY ${orderBy}
 LIMIT ${params.add(spec.fetch)}`;
  return { sql, params: params.values };
}
