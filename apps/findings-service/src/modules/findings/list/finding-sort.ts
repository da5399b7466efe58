/** Sort keys of the findings list; the keyset is always (sort key, id). */
export const FINDING_SORT_KEYS = [
  'severity',
  'created_at',
  'last_seen_at',
  'status',
  'id',
] as const;
export type FindingSortKey = (typeof FINDING_SORT_KEYS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * Severity as a rank (CRITICAL 5 ... INFO 1). Must stay identical to the expression of the
 * index `ix_findings_severity_rank_id` (migration 1764200000000), or the index is not used.
 */
export const SEVERITY_RANK_SQL = `(CASE f.severity WHEN 'CRITICAL' THEN 5 WHEN 'HIGH' THEN 4 WHEN 'MEDIUM' THEN 3 WHEN 'LOW' THEN 2 ELSE 1 END)`;

/** Status in lifecycle order (new ... fixed), as in the spec's state table. */
export const STATUS_RANK_SQL = `(CASE f.status WHEN 'new' THEN 1 WHEN 'renewed' THEN 2 WHEN 'needs_review' THEN 3 WHEN 'in_progress' THEN 4 WHEN 'confirmed' THEN 5 WHEN 'waiting' THEN 6 WHEN 'risk_accepted' THEN 7 WHEN 'wont_fix' THEN 8 WHEN 'false_positive' THEN 9 ELSE 10 END)`;

interface SortColumn {
  /** Expression ordered by. */
  sql: string;
  /** Cast of the cursor parameter back to the expression's type. */
  cast: string;
  /** The cursor value is an integer rank (else the expression's text form). */
  numeric: boolean;
}

export const SORT_COLUMNS: Record<FindingSortKey, SortColumn | undefined> = {
  severity: { sql: SEVERITY_RANK_SQL, cast: 'int', numeric: true },
  status: { sql: STATUS_RANK_SQL, cast: 'int', numeric: true },
  // Text form of timestamptz keeps the microseconds a JS Date would drop.
  created_at: { sql: 'f.created_at', cast: 'timestamptz', numeric: false },
  last_seen_at: { sql: 'f.last_seen_at', cast: 'timestamptz', numeric: false },
  id: undefined,
};
