import type { VisibleScope } from '../../projects/visibility.service';
import { FINDING_STATUS_GROUPS } from '../finding-status';
import { axisMatchSql } from '../groups/group-axis';
import { compileQuery, containsPattern } from '../query';
import { fullTextSearchSql } from '../search/finding-search.sql';
import {
  ALL_TAGS_SQL,
  catalogWithIndexedSearch,
  FINDINGS_QUERY_CATALOG,
} from './finding-query-catalog';
import type { FindingSelection } from './finding-filters';

/** Collects `$n` parameters of one statement. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The rows a principal may touch: everything, or its projects and single products. */
export function scopeSql(scope: VisibleScope, params: SqlParams): string {
  if (scope.all) return 'TRUE';
  const parts: string[] = [];
  if (scope.projectIds.length > 0)
    parts.push(`f.project_id = ANY(${params.add(scope.projectIds)}::uuid[])`);
  if (scope.productIds.length > 0)
    parts.push(`f.product_id = ANY(${params.add(scope.productIds)}::uuid[])`);
  return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
}

/**
 * WHERE conditions of a selection (filters AND query) over `findings f` joined with
 * `projects p` and `products pr`. Every value is a parameter.
 */
export function selectionSql(selection: FindingSelection, params: SqlParams): string[] {
  const f = selection.filters;
  // A merged finding has left every list, count and bulk change (docs/findings-service/merge.md).
  const where: string[] = ['f.merged_into_id IS NULL'];
  const anyOf = (column: string, values: unknown[] | undefined, cast: string): void => {
    if (values && values.length > 0)
      where.push(`${column} = ANY(${params.add(values)}::${cast}[])`);
  };
  anyOf('f.status', f.statuses, 'text');
  if (f.statusGroup) anyOf('f.status', [...FINDING_STATUS_GROUPS[f.statusGroup]], 'text');
  anyOf('f.severity', f.severities, 'text');
  anyOf('f.scanner', f.scanners, 'text');
  anyOf('f.project_id', f.projectIds, 'uuid');
  anyOf('f.product_id', f.productIds, 'uuid');
  anyOf('f.cve', f.cves, 'text');
  if (f.tags && f.tags.length > 0) where.push(`${ALL_TAGS_SQL} && ${params.add(f.tags)}::text[]`);
  if (f.host) where.push(`f.host ILIKE ${params.add(containsPattern(f.host))} ESCAPE '\\'`);
  if (f.filePath)
    where.push(`f.file_path ILIKE ${params.add(containsPattern(f.filePath))} ESCAPE '\\'`);
  if (f.search) {
    const param = params.add(containsPattern(f.search));
    where.push(fullTextSearchSql(param, f.search, selection.indexedSearch));
  }
  anyOf('f.rule_id', f.ruleIds, 'text');
  if (f.filePathExact) where.push(`f.file_path = ${params.add(f.filePathExact)}::text`);
  // A report's findings are those of its product (the product's index narrows the scan).
  for (const [column, id] of [
    ['first_report_id', f.firstReportId],
    ['last_report_id', f.lastReportId],
  ] as const) {
    if (!id) continue;
    const report = params.add(id);
    where.push(`f.${column} = ${report}::uuid`);
    where.push(`f.product_id = (SELECT r.product_id FROM reports r WHERE r.id = ${report}::uuid)`);
  }
  if (f.assigneeId) where.push(`f.assignee_id = ${params.add(f.assigneeId)}::uuid`);
  if (f.createdFrom) where.push(`f.created_at >= ${params.add(f.createdFrom)}`);
  if (f.createdTo) where.push(`f.created_at < ${params.add(f.createdTo)}`);
  if (f.lastSeenFrom) where.push(`f.last_seen_at >= ${params.add(f.lastSeenFrom)}`);
  if (f.lastSeenTo) where.push(`f.last_seen_at < ${params.add(f.lastSeenTo)}`);
  // Suppressed findings leave the default lists (docs/findings-service/suppression.md).
  if (f.suppressionRuleId) {
    where.push(`f.suppression_rule_id = ${params.add(f.suppressionRuleId)}::uuid`);
  } else if (f.suppression === 'only') {
    where.push('f.suppression_rule_id IS NOT NULL');
  } else if (f.suppression !== 'include') {
    where.push('f.suppression_rule_id IS NULL');
  }
  if (f.axis) where.push(axisMatchSql(f.axis, params));
  if (selection.query) {
    const compiled = compileQuery(selection.query, {
      catalog: selection.indexedSearch
        ? catalogWithIndexedSearch(selection.indexedSearch)
        : FINDINGS_QUERY_CATALOG,
      paramOffset: params.values.length,
    });
    params.values.push(...compiled.params);
    where.push(compiled.sql);
  }
  return where;
}

/** `FROM` of list and bulk statements (the query language's `project`/`product` need names). */
export const FINDINGS_FROM = `findings f
  JOIN projects p ON p.id = f.project_id
  JOIN products pr ON pr.id = f.product_id`;

/**
 * The finding's own columns a list item shows (FindingDto), named one by one: never `f.*`, which
 * would also carry the identity hash, the scanner's `properties` and the flows (jsonb up to
 * ~100 KB a row, detoasted and sent for every row of a page that shows none of them).
 */
// prettier-ignore
export const FINDING_LIST_OWN_COLUMNS = [
  'id', 'project_id', 'product_id', 'identity_kind', 'rule_id', 'rule_name', 'rule_title', 'title',
  'description', 'severity', 'status', 'status_changed_at', 'baseline_state', 'kind', 'suppressed',
  'host', 'ip', 'port', 'protocol', 'service', 'url', 'file_path', 'start_line', 'end_line',
  'snippet', 'logical_location', 'cve', 'cwe', 'component', 'component_version', 'score',
  'scanner', 'scanner_version', 'revision', 'report_tags', 'tags', 'enrichment_tags', 'sla_days',
  'sla_started_at', 'sla_paused_at', 'sla_due_at', 'assignee_id', 'triage_comment',
  'risk_accepted_until', 'waiting_reason', 'waiting_until', 'fingerprints', 'sources',
  'first_seen_at', 'last_seen_at', 'created_at', 'updated_at', 'merged_into_id', 'merged_at',
  'suppression_rule_id', 'suppressed_at',
] as const;

/** What only the single finding shows (FindingDetailDto): SARIF related locations and flows. */
export const FINDING_DETAIL_OWN_COLUMNS = ['related_locations', 'code_flows'] as const;

const JOINED_COLUMNS = `p.name AS project_name, pr.name AS product_name,
  u.assignee_email, u.assignee_display_name,
  tk.ticket_id, tk.ticket_provider_plugin_id, tk.ticket_task_id, tk.ticket_key, tk.ticket_url,
  tk.ticket_status, tk.ticket_raw_status, tk.ticket_origin, tk.ticket_status_synced_at,
  tk.ticket_sync_error, tk.ticket_linked_at,
  (SELECT sr.name FROM suppression_rules sr WHERE sr.id = f.suppression_rule_id)
    AS suppression_rule_name`;

const own = (columns: readonly string[]): string => columns.map((c) => `f.${c}`).join(', ');

/**
 * Columns of a finding as a list reads it (with FINDINGS_READ_FROM): FINDING_LIST_OWN_COLUMNS,
 * project and product names, the assignee, and its ticket in an external tracker (`ticket_*`,
 * NULL without).
 */
export const FINDING_READ_COLUMNS = `${own(FINDING_LIST_OWN_COLUMNS)},
  ${JOINED_COLUMNS}`;

/**
 * FINDING_READ_COLUMNS, the flows, and how many findings share the ticket (single-finding
 * reads only).
 */
export const FINDING_DETAIL_COLUMNS = `${FINDING_READ_COLUMNS}, ${own(FINDING_DETAIL_OWN_COLUMNS)},
  (SELECT count(*)::int FROM finding_tickets c WHERE c.ticket_id = tk.ticket_id)
    AS ticket_finding_count`;

/**
 * `FROM` of statements that read findings for the API: FINDINGS_FROM, the assignee and the
 * ticket (users by its primary key; finding_tickets and tickets by theirs: index lookups per
 * row). The assignee and the ticket are lateral subqueries kept apart by `OFFSET 0`: as plain
 * `LEFT JOIN`s the planner searched the join orders of six tables for every list statement
 * (~1.7 of 2.0 ms of planning at 100 k findings, more than the page's execution), while each
 * row has at most one of each; kept apart, they are planned once each and joined per row.
 */
export const FINDINGS_READ_FROM = `${FINDINGS_FROM}
  LEFT JOIN LATERAL (SELECT u.email AS assignee_email, u.display_name AS assignee_display_name
    FROM users u WHERE u.id = f.assignee_id OFFSET 0) u ON TRUE
  LEFT JOIN LATERAL (SELECT tk.id AS ticket_id, tk.installed_plugin_id AS ticket_provider_plugin_id,
      tk.task_id AS ticket_task_id, tk.task_key AS ticket_key, tk.url AS ticket_url,
      tk.status AS ticket_status, tk.raw_status AS ticket_raw_status, tk.origin AS ticket_origin,
      tk.status_synced_at AS ticket_status_synced_at, tk.sync_error AS ticket_sync_error,
      fti.linked_at AS ticket_linked_at
    FROM finding_tickets fti JOIN tickets tk ON tk.id = fti.ticket_id
   WHERE fti.finding_id = f.id OFFSET 0) tk ON TRUE`;
