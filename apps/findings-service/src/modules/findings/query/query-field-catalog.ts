import { FINDING_STATUSES } from '../finding-status';

/** Value types of searchable fields. */
export type QueryFieldType = 'enum' | 'text' | 'number' | 'boolean' | 'text_array';

export interface QueryFieldDefinition {
  type: QueryFieldType;
  /** SQL column expression (trusted text from code, never from the query). */
  sql: string;
  /** Canonical values of an enum field (matched case-insensitively). */
  values?: readonly string[];
  /** Canonicalizes a value of a text/text_array field (e.g. `79` → `CWE-79`). */
  normalize?: (value: string) => string;
}

/**
 * Full-text search for bare terms: `sql(param, term)` is a boolean expression using `param`
 * (`term` is the bare term as written, for choosing a plan, never put into the SQL).
 */
export interface FullTextSearch {
  /** `pattern`: the parameter is an ILIKE pattern `%term%` (escaped); `raw`: the term itself. */
  value: 'pattern' | 'raw';
  sql: (param: string, term: string) => string;
  /** The expression a negated term (`-word`) negates; `sql` when absent. */
  negatedSql?: (param: string, term: string) => string;
}

export interface QueryFieldCatalog {
  fields: Readonly<Record<string, QueryFieldDefinition>>;
  fullText: FullTextSearch;
}

export const QUERY_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
/** The ten finding states; one list for the whole service. */
export const QUERY_STATUSES = FINDING_STATUSES;
export const QUERY_BASELINE_STATES = ['new', 'unchanged', 'updated', 'absent'] as const;
export const QUERY_KINDS = [
  'pass',
  'open',
  'informational',
  'notApplicable',
  'review',
  'fail',
] as const;

/** `79`, `cwe79`, `cwe-79` → `CWE-79`; anything else unchanged. */
export function normalizeCweValue(value: string): string {
  const match = /^(?:cwe[-_: ]?)?(\d{1,5})$/i.exec(value.trim());
  return match ? `CWE-${Number(match[1])}` : value;
}

/**
 * Default catalog: the column expressions the findings module is expected to expose, with
 * `f` = findings, `p` = projects, `pr` = products. The findings module adapts it to its
 * schema (e.g. `host(f.ip)` for an inet column) before compiling.
 */
export const DEFAULT_QUERY_FIELD_CATALOG: QueryFieldCatalog = {
  fields: {
    severity: { type: 'enum', sql: 'f.severity', values: QUERY_SEVERITIES },
    status: { type: 'enum', sql: 'f.status', values: QUERY_STATUSES },
    baseline_state: { type: 'enum', sql: 'f.baseline_state', values: QUERY_BASELINE_STATES },
    kind: { type: 'enum', sql: 'f.kind', values: QUERY_KINDS },
    suppressed: { type: 'boolean', sql: 'f.suppressed' },
    host: { type: 'text', sql: 'f.host' },
    ip: { type: 'text', sql: 'f.ip' },
    file_path: { type: 'text', sql: 'f.file_path' },
    service: { type: 'text', sql: 'f.service' },
    cve: { type: 'text', sql: 'f.cve', normalize: (v) => v.toUpperCase() },
    cwe: { type: 'text_array', sql: 'f.cwe', normalize: normalizeCweValue },
    component: { type: 'text', sql: 'f.component' },
    component_version: { type: 'text', sql: 'f.component_version' },
    scanner: { type: 'text', sql: 'f.scanner' },
    tags: { type: 'text_array', sql: 'f.tags' },
    sla_days: { type: 'number', sql: 'f.sla_days' },
    project: { type: 'text', sql: 'p.name' },
    product: { type: 'text', sql: 'pr.name' },
  },
  fullText: {
    value: 'pattern',
    sql: (param) =>
      `(f.title ILIKE ${param} ESCAPE '\\' OR f.description ILIKE ${param} ESCAPE '\\' OR f.rule_id ILIKE ${param} ESCAPE '\\')`,
  },
};

/** Limits from the spec ("Limits"). */
export const MAX_QUERY_ALTERNATIVES = 20;
export const MIN_GLOB_CHARACTERS = 3;
export const MAX_QUERY_LENGTH = 2000;
export const MAX_QUERY_TERMS = 50;
