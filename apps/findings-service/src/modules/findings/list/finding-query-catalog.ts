import { DEFAULT_QUERY_FIELD_CATALOG, QueryFieldCatalog } from '../query';
import { fullTextSearchSql, fullTextSql, type IndexedTerm } from '../search/finding-search.sql';

/** Manual, report and enrichment tags as one array: `tags:x` matches a tag of any origin. */
export const ALL_TAGS_SQL = '(f.tags || f.report_tags || f.enrichment_tags)';

/** Full-text search of bare terms and the `search` filter: title, description, rule id. */
export { fullTextSql } from '../search/finding-search.sql';

/** The tracker state of a finding's ticket, `none` without one (a primary-key lookup per row). */
export const TICKET_STATUS_SQL = `COALESCE((SELECT t.status FROM finding_tickets ft JOIN tickets t ON t.id = ft.ticket_id WHERE ft.finding_id = f.id), 'none')`;

/** The task key (e.g. `SEC-42`) of a finding's ticket; NULL without one. */
export const TICKET_KEY_SQL = `(SELECT t.task_key FROM finding_tickets ft JOIN tickets t ON t.id = ft.ticket_id WHERE ft.finding_id = f.id)`;

export const QUERY_TICKET_STATES = ['none', 'open', 'in_progress', 'resolved', 'closed'] as const;

/**
 * The query-language catalog over the real schema: `f` = findings, `p` = projects,
 * `pr` = products (joined by the list statement). Differences from the default catalog:
 * `tags` spans all three tag origins (ALL_TAGS_SQL); `ticket` and `ticket_key` read the
 * finding's ticket in an external tracker (docs/findings-service/tickets.md).
 */
export const FINDINGS_QUERY_CATALOG: QueryFieldCatalog = {
  fields: {
    ...DEFAULT_QUERY_FIELD_CATALOG.fields,
    tags: { type: 'text_array', sql: ALL_TAGS_SQL },
    project: { type: 'text', sql: 'p.name' },
    product: { type: 'text', sql: 'pr.name' },
    ticket: { type: 'enum', sql: TICKET_STATUS_SQL, values: QUERY_TICKET_STATES },
    ticket_key: { type: 'text', sql: TICKET_KEY_SQL },
  },
  fullText: { value: 'pattern', sql: fullTextSql },
};

/**
 * FINDINGS_QUERY_CATALOG whose bare terms in `indexed` go through the search index
 * (FindingSearchPlanner); negated terms keep the plain condition (the index finds the rows
 * that contain a term, not the others).
 */
export function catalogWithIndexedSearch(
  indexed: ReadonlyMap<string, IndexedTerm>,
): QueryFieldCatalog {
  return {
    ...FINDINGS_QUERY_CATALOG,
    fullText: {
      value: 'pattern',
      sql: (param, term) => fullTextSearchSql(param, term, indexed),
      negatedSql: fullTextSql,
    },
  };
}
