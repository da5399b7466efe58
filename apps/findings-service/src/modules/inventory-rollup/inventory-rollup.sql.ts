import type { VisibleScope } from '../projects/visibility.service';
import { FINDING_STATUSES } from '../findings/finding-status';
import {
  keyLengthSql,
  ROLLUP_KEY_SQL,
  UNBOUNDED_KEY,
  type RollupAxis,
} from '../findings/groups/group-axis';
import { SEVERITIES, type FindingSelection } from '../findings/list/finding-filters';
import {
  FINDINGS_FROM,
  scopeSql,
  selectionSql,
  SqlParams,
} from '../findings/list/finding-selection.sql';
import type { SortOrder } from '../findings/list/finding-sort';
import { rollupCountsSql } from './rollup-counts.sql';

/** Sort keys of a roll-up page; ties always break on the key (ascending, byte order). */
export const ROLLUP_SORT_KEYS = [
  'total',
  'key',
  'critical',
  'high',
  'medium',
  'low',
  'info',
] as const;
export type RollupSortKey = (typeof ROLLUP_SORT_KEYS)[number];

/** Position after the last row of a page: the row's sort value (none for `key`) and key. */
export interface RollupCursor {
  axis: RollupAxis;
  sort: RollupSortKey;
  order: SortOrder;
  value: number | null;
  key: string;
}

export interface RollupSpec extends FindingSelection {
  scope: VisibleScope;
  axis: RollupAxis;
  sort: RollupSortKey;
  order: SortOrder;
  cursor?: RollupCursor;
  /** Rows to fetch (page size plus one). */
  fetch: number;
}

const lower = (s: string): string => s.toLowerCase();

/**
 * Sums of the inner counts (`n` per key, severity, state and project): one per severity
 * (`sev_critical`…) and per state (`st_new`…).
 */
const SUM_COLUMNS = [
  ...SEVERITIES.map((s) => `sum(c.n) FILTER (WHERE c.severity = '${s}')::int AS sev_${lower(s)}`),
  ...FINDING_STATUSES.map((s) => `sum(c.n) FILTER (WHERE c.status = '${s}')::int AS st_${s}`),
].join(',\n    ');

/**
 * `findings f` alone unless a condition names the joined project or product (the query
 * language's `project:`/`product:`): the joins cost a lookup per row of the whole selection.
 */
function fromFor(where: string[]): string {
  return where.some((w) => /\bpr?\.name\b/.test(w)) ? FINDINGS_FROM : 'findings f';
}

/**
 * One statement: the visible selection (visibility AND filters AND `q`, as the list) grouped
 * by the axis key, with a total, a count per severity and per state, and the project when the
 * row lies in one; the page after the cursor in the requested order.
 */
export function inventoryRollupSql(spec: RollupSpec): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  const key = ROLLUP_KEY_SQL[spec.axis];
  const where = [scopeSql(spec.scope, params), ...selectionSql(spec, params)];
  const dir = spec.order === 'asc' ? 'ASC' : 'DESC';
  const sortCol =
    spec.sort === 'key' ? undefined : spec.sort === 'total' ? 'total' : `sev_${spec.sort}`;
  let after = '';
  if (spec.cursor) {
    const k = `${params.add(spec.cursor.key)}::text`;
    if (!sortCol) {
      after = `WHERE g.key COLLATE "C" ${spec.order === 'asc' ? '>' : '<'} ${k}`;
    } else {
      const v = `${params.add(spec.cursor.value ?? 0)}::int`;
      after = `WHERE g.${sortCol} ${spec.order === 'asc' ? '>' : '<'} ${v}
     OR (g.${sortCol} = ${v} AND g.key COLLATE "C" > ${k})`;
    }
  }
  const orderBy = sortCol
    ? `g.${sortCol} ${dir}, g.key COLLATE "C" ASC`
    : `g.key COLLATE "C" ${dir}`;
  // Integer counts (sum(int) accumulates in int8, sum(bigint) in numeric) and the project
  // compared in byte order (COLLATE "C": no locale comparison per row) — the pivot's cost.
  // Two levels: the selection counted per (key, severity, state, project) — a run-length
  // count along the axis index, no per-row expressions — then pivoted per key over those few
  // rows. The filtered sums of the pivot run once per group, not once per finding. Keys the
  // index cannot hold (longer than AXIS_INDEX_MAX_BYTES) are counted by a second branch over
  // their own small index.
  const branch = (
    long: boolean,
  ) => `SELECT ${key} AS key, f.severity, f.status, f.project_id, count(*)::int AS n
    FROM ${fromFor(where)}
    WHERE ${[...where, `${key} <> ''`, keyLengthSql(key, long)].join('\n      AND ')}
    GROUP BY 1, 2, 3, 4`;
  // The short keys from the precomputed counts when the selection is one of their dimensions
  // (rollup-counts.sql.ts), else from findings.
  const short = rollupCountsSql(spec, params) ?? branch(false);
  const counted = UNBOUNDED_KEY[spec.axis] ? `${short}\n    UNION ALL\n    ${branch(true)}` : short;
  const sql = `SELECT g.* FROM (
  SELECT c.key,
    sum(c.n)::int AS total,
    ${SUM_COLUMNS},
    CASE WHEN min(c.project_id::text COLLATE "C") = max(c.project_id::text COLLATE "C") THEN min(c.project_id::text COLLATE "C") END AS project_id
  FROM (
    ${counted}
  ) c
  GROUP BY c.key
) g ${after}
ORDER BY ${orderBy}
LIMIT ${params.add(spec.fetch)}`;
  return { sql, params: params.values };
}

/**
 * The writable members of a row (ids and projects), at most `limit`: what "one task for the
 * group" links.
 */
export function rollupMemberIdsSql(
  scope: VisibleScope,
  selection: FindingSelection,
  limit: number,
): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  const where = [scopeSql(scope, params), ...selectionSql(selection, params)];
  const sql = `SELECT f.id, f.project_id FROM ${fromFor(where)}
 WHERE ${where.join('\n   AND ')}
 ORDER BY f.id
 LIMIT ${params.add(limit)}`;
  return { sql, params: params.values };
}
