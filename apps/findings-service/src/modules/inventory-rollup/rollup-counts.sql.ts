import type { VisibleScope } from '../projects/visibility.service';
import { FINDING_STATUS_GROUPS } from '../findings/finding-status';
import type { RollupAxis } from '../findings/groups/group-axis';
import type { FindingFilters, FindingSelection } from '../findings/list/finding-filters';
import type { SqlParams } from '../findings/list/finding-selection.sql';

/**
 * The filters the precomputed counts (`finding_rollup_counts` and `finding_rollup_deltas`,
 * migration 1795607500000) have as dimensions; `suppression` only at its default (`exclude`), the counts holding exactly the
 * findings the lists show by default (not merged, not suppressed).
 */
const COUNTED_FILTERS = new Set<keyof FindingFilters>([
  'statuses',
  'statusGroup',
  'severities',
  'projectIds',
  'suppression',
]);

const present = (value: unknown): boolean =>
  value !== undefined && !(Array.isArray(value) && value.length === 0);

/**
 * Whether a roll-up's selection is expressible in the counts' dimensions: visibility by
 * project (a principal that sees single products is not: the counts have no product), no
 * query, and only the filters above.
 */
export function countsAnswer(scope: VisibleScope, selection: FindingSelection): boolean {
  if (!scope.all && scope.productIds.length > 0) return false;
  if (selection.query) return false;
  const f = selection.filters;
  if (present(f.suppression) && f.suppression !== 'exclude') return false;
  return Object.entries(f).every(
    ([name, value]) => !present(value) || COUNTED_FILTERS.has(name as keyof FindingFilters),
  );
}

/**
 * The roll-up's inner rows — (key, severity, state, project, count) of the short keys — from
 * the precomputed counts, or undefined when the selection needs the findings (countsAnswer).
 * A counter is its folded row plus its unfolded deltas, read in one statement (one snapshot: a
 * concurrent fold moves rows between the two tables atomically); a sum of 0 is no finding.
 */
export function rollupCountsSql(
  spec: FindingSelection & { scope: VisibleScope; axis: RollupAxis },
  params: SqlParams,
): string | undefined {
  if (!countsAnswer(spec.scope, spec)) return undefined;
  const f = spec.filters;
  const where = [`c.axis = ${params.add(spec.axis)}::text`];
  const anyOf = (column: string, values: readonly unknown[] | undefined, cast: string): void => {
    if (values && values.length > 0)
      where.push(`c.${column} = ANY(${params.add(values)}::${cast}[])`);
  };
  if (!spec.scope.all) anyOf('project_id', spec.scope.projectIds, 'uuid');
  if (!spec.scope.all && spec.scope.projectIds.length === 0) where.push('FALSE');
  anyOf('status', f.statuses, 'text');
  if (f.statusGroup) anyOf('status', FINDING_STATUS_GROUPS[f.statusGroup], 'text');
  anyOf('severity', f.severities, 'text');
  anyOf('project_id', f.projectIds, 'uuid');
  return `SELECT c.key, c.severity, c.status, c.project_id, sum(c.n)::int AS n
    FROM (SELECT axis, key, project_id, severity, status, n FROM finding_rollup_counts
      UNION ALL
      SELECT axis, key, project_id, severity, status, n FROM finding_rollup_deltas) c
    WHERE ${where.join('\n      AND ')}
    GROUP BY 1, 2, 3, 4
    HAVING sum(c.n) <> 0`;
}
