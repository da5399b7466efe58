import { DEFAULT_QUERY_FIELD_CATALOG, QueryFieldCatalog } from '../query';

/** Manual, report and enrichment tags as one array: `tags:x` matches a tag of any origin. */
export const ALL_TAGS_SQL = '(f.tags || f.report_tags || f.enrichment_tags)';

/** Full-text search of bare terms and the `search` filter: title, description, rule id. */
export function fullTextSql(param: string): string {
  return `(f.title ILIKE ${param} ESCAPE '\\' OR f.description ILIKE ${param} ESCAPE '\\' OR f.rule_id ILIKE ${param} ESCAPE '\\')`;
}

/**
 * The query-language catalog over the real schema: `f` = findings, `p` = projects,
 * `pr` = products (joined by the list statement). Differences from the default catalog:
 * `tags` spans all three tag origins (ALL_TAGS_SQL).
 */
export const FINDINGS_QUERY_CATALOG: QueryFieldCatalog = {
  fields: {
    ...DEFAULT_QUERY_FIELD_CATALOG.fields,
    tags: { type: 'text_array', sql: ALL_TAGS_SQL },
    project: { type: 'text', sql: 'p.name' },
    product: { type: 'text', sql: 'pr.name' },
  },
  fullText: { value: 'pattern', sql: fullTextSql },
};
