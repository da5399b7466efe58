import type { FindingStatus, FindingStatusGroup } from '../finding-status';
import type { IndexedTerm } from '../search/finding-search.sql';
import type { AxisMatch } from '../groups/group-axis';
import type { QueryNode } from '../query';

export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** List filters (query parameters); each one present narrows the result (AND). */
export interface FindingFilters {
  statuses?: FindingStatus[];
  statusGroup?: FindingStatusGroup;
  severities?: Severity[];
  /** Exact scanner names (any of). */
  scanners?: string[];
  projectIds?: string[];
  productIds?: string[];
  /** Any of these tags, of any origin (manual, report, enrichment). */
  tags?: string[];
  cves?: string[];
  /** Case-insensitive substrings. */
  host?: string;
  filePath?: string;
  /** Full-text search (same as bare terms of `q`). */
  search?: string;
  /** Exact rule ids (any of): a group of GET /findings/groups?by=rule. */
  ruleIds?: string[];
  /** One exact file path: a group of GET /findings/groups?by=file. */
  filePathExact?: string;
  /** Findings this report created. */
  firstReportId?: string;
  /** Findings whose latest sighting is this report. */
  lastReportId?: string;
  assigneeId?: string;
  createdFrom?: Date;
  createdTo?: Date;
  lastSeenFrom?: Date;
  lastSeenTo?: Date;
  /**
   * Findings a suppression rule suppresses (docs/findings-service/suppression.md): left out
   * by default (`exclude`), shown with the others (`include`) or alone (`only`).
   */
  suppression?: 'exclude' | 'include' | 'only';
  /** Only the findings this suppression rule suppresses (implies `only`). */
  suppressionRuleId?: string;
  /** Same value on one group axis: a roll-up row or a finding's group (groups/group-axis.ts). */
  axis?: AxisMatch;
}

/** What a list or bulk statement selects: filters AND the parsed query (if any). */
export interface FindingSelection {
  filters: FindingFilters;
  query?: QueryNode;
  /**
   * Free-text terms (the `search` filter, bare query terms) searched through the search index
   * (FindingSearchPlanner), with the piece the index is read for; the others, and every term
   * when absent, use the plain condition.
   * Same result either way.
   */
  indexedSearch?: ReadonlyMap<string, IndexedTerm>;
}
