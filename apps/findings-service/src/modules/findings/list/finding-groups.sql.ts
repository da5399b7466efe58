import type { VisibleScope } from '../../projects/visibility.service';
import type { FindingSelection } from './finding-filters';
import { FINDINGS_FROM, scopeSql, selectionSql, SqlParams } from './finding-selection.sql';

export const FINDING_GROUP_KEYS = ['rule', 'file'] as const;
export type FindingGroupKey = (typeof FINDING_GROUP_KEYS)[number];

/** Position after the last group of a page (order: count desc, key asc). */
export interface FindingGroupCursor {
  by: FindingGroupKey;
  count: number;
  key: string;
}

export interface FindingGroupsSpec extends FindingSelection {
  scope: VisibleScope;
  by: FindingGroupKey;
  cursor?: FindingGroupCursor;
  fetch: number;
}

/** What a group is keyed and titled by: the rule (its most common short title) or the file. */
const KEY_OF: Record<FindingGroupKey, { key: string; title: string; where: string }> = {
  rule: {
    key: 'f.rule_id',
    title: `mode() WITHIN GROUP (ORDER BY COALESCE(NULLIF(f.rule_title, ''), NULLIF(f.rule_name, ''), f.rule_id))`,
    where: 'TRUE',
  },
  file: { key: 'f.file_path', title: 'f.file_path', where: 'f.file_path IS NOT NULL' },
};

/**
 * One statement: the visible selection (visibility AND filters AND `q`, as the list) grouped by
 * the key with a count per severity, the page the groups after the cursor.
 */
export function findingGroupsSql(spec: FindingGroupsSpec): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  const k = KEY_OF[spec.by];
  const where = [scopeSql(spec.scope, params), ...selectionSql(spec, params), k.where];
  const after = spec.cursor
    ? `WHERE g.count < ${params.add(spec.cursor.count)}::int
          OR (g.count = ${params.add(spec.cursor.count)}::int AND g.key COLLATE "C" > ${params.add(spec.cursor.key)}::text)`
    : '';
  const sql = `SELECT g.* FROM (
  SELECT ${k.key} AS key, ${spec.by === 'rule' ? k.title : 'min(f.file_path)'} AS title,
    count(*)::int AS count,
    count(*) FILTER (WHERE f.severity = 'CRITICAL')::int AS critical,
    count(*) FILTER (WHERE f.severity = 'HIGH')::int AS high,
    count(*) FILTER (WHERE f.severity = 'MEDIUM')::int AS medium,
    count(*) FILTER (WHERE f.severity = 'LOW')::int AS low,
    count(*) FILTER (WHERE f.severity = 'INFO')::int AS info
  FROM ${FINDINGS_FROM}
  WHERE ${where.join('\n    AND ')}
  GROUP BY ${k.key}
) g ${after}
ORDER BY g.count DESC, g.key COLLATE "C" ASC
LIMIT ${params.add(spec.fetch)}`;
  return { sql, params: params.values };
}

/** The selection counted, stopping after `cap` rows (`count` ≤ cap). */
export function findingCountSql(
  spec: FindingSelection & { scope: VisibleScope },
  cap: number,
): { sql: string; params: unknown[]; selectSql: string } {
  const params = new SqlParams();
  const where = [scopeSql(spec.scope, params), ...selectionSql(spec, params)];
  const selectSql = `SELECT 1 FROM ${FINDINGS_FROM} WHERE ${where.join(' AND ')}`;
  const sql = `SELECT count(*)::int AS count FROM (${selectSql} LIMIT ${params.add(cap)}) s`;
  return { sql, params: params.values, selectSql };
}
