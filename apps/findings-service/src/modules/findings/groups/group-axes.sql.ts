import type { VisibleScope } from '../../projects/visibility.service';
import type { FindingView } from '../finding-view';
import { scopeSql, selectionSql, SqlParams } from '../list/finding-selection.sql';
import { axisMatchSql, GROUP_AXES, type AxisMatch, type GroupAxis } from './group-axis';

/**
 * The finding's match on an axis (its own value), or undefined when it has none there (no
 * component, host or CVE: the finding forms no group on that axis).
 */
export function axisMatchOf(
  finding: Pick<FindingView, 'component' | 'host' | 'cve' | 'scanner' | 'ruleId'>,
  axis: GroupAxis,
): AxisMatch | undefined {
  if (axis === 'rule') return { axis, scanner: finding.scanner, ruleId: finding.ruleId };
  const key = { package: finding.component, host: finding.host, cve: finding.cve }[axis];
  return key ? { axis, key } : undefined;
}

/**
 * One statement: how many visible findings of the finding's project share each axis with it
 * (the finding itself included), over the rows the list would show (visibility AND the list's
 * default exclusions of selectionSql). Each axis is an indexed equality, ORed.
 */
export function groupAxisCountsSql(
  scope: VisibleScope,
  finding: FindingView,
): { sql: string; params: unknown[]; axes: GroupAxis[] } {
  const params = new SqlParams();
  const where = [
    scopeSql(scope, params),
    ...selectionSql({ filters: { projectIds: [finding.projectId] } }, params),
  ];
  const axes: GroupAxis[] = [];
  const counts: string[] = [];
  const any: string[] = [];
  for (const axis of GROUP_AXES) {
    const match = axisMatchOf(finding, axis);
    if (!match) continue;
    const condition = axisMatchSql(match, params);
    axes.push(axis);
    counts.push(`count(*) FILTER (WHERE ${condition})::int AS "${axis}"`);
    any.push(condition);
  }
  if (axes.length === 0) return { sql: '', params: [], axes };
  where.push(`(${any.join(' OR ')})`);
  const sql = `SELECT ${counts.join(',\n  ')}
  FROM findings f
 WHERE ${where.join('\n   AND ')}`;
  return { sql, params: params.values, axes };
}
