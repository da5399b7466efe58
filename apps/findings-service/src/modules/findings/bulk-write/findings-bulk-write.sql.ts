import { insertFindingActionsSql } from '../../action-log/finding-actions.sql';
import { STAGE_COLUMNS } from './finding-row';

/**
 * The SQL of the ingestion write path (findings-bulk-write.repository.ts): staging tables,
 * the upsert of normalized results and the touch of unchanged re-sightings.
 */

/** Per-connection temporary staging tables; emptied by every commit. */
export const STAGE = 'pg_temp.findings_ingest_stage';
export const RESIGHTED_STAGE = 'pg_temp.findings_resighted_stage';

/**
 * The staging table (created once per connection) and this transaction's settings, in one
 * round trip: the count query probes the primary key once per upserted row (never a hash join
 * over the table); no JIT (its compile time exceeds a batch's runtime); the commit does not wait
 * for the WAL flush. That is safe here: a database crash can only lose the last batches
 * together with their watermark (same transaction), which the retried job writes again; the
 * report's completion (a separate, synchronous commit) flushes every batch before it.
 */
export const PREPARE_STAGE = `SET LOCAL client_min_messages = warning;
  CREATE TEMP TABLE IF NOT EXISTS findings_ingest_stage (
  ${STAGE_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ')}) ON COMMIT DELETE ROWS;
  CREATE TEMP TABLE IF NOT EXISTS findings_resighted_stage (finding_id uuid, content_digest uuid)
    ON COMMIT DELETE ROWS;
  SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; SET LOCAL jit = off;
  SET LOCAL synchronous_commit = off`;

/** Staging columns, all copied into `findings` (score is cast to real on the way). */
export const STAGED = STAGE_COLUMNS.map(([name]) => name).join(', ');

/**
 * The `renewed` action-log entry (automatic, `system` actor) of each finding of CTE `seen` that
 * the statement moved from `fixed`; $2 is the project, $4 the report.
 */
const RENEWED_LOG = insertFindingActionsSql(
  ['finding_id', 'project_id', 'actor_type', 'actor_label', 'action', 'from_value', 'to_value'],
  `SELECT id, $2, 'system', 'ingestion', 'renewed', '{"status":"fixed"}'::jsonb,
    jsonb_build_object('status', 'renewed', 'report_id', $4::text)
    FROM seen WHERE old_status = 'fixed'`,
);

/**
 * The `created` action-log entry (automatic, `system` actor `ingestion`) of each finding of CTE
 * `up` that the statement inserted, `to` `{status: new, severity, report_id}` ($4 the report):
 * the first entry of the finding's history.
 */
const CREATED_LOG = insertFindingActionsSql(
  ['finding_id', 'project_id', 'actor_type', 'actor_label', 'action', 'to_value'],
  `SELECT id, $2, 'system', 'ingestion', 'created',
    jsonb_build_object('status', 'new', 'severity', severity, 'report_id', $4::text)
    FROM up WHERE inserted`,
);

/**
 * One set-based statement per batch over the staged rows: new identities are inserted
 * (`new`, with their `created` entry in the action log), known ones get last seen, the latest
 * scanner's extended fields and their `sources` entry side by side (stored only when the row's columns do not imply it, see
 * finding-sources.ts: the first sighting stores `{}`, a same-content re-sighting by the same
 * scanner drops a stored entry, any other stores the previous scanner's implied entry and
 * the new one); `fixed` becomes `renewed`, with an automatic (`system`) entry in
 * the action log written by the same statement. The outer query reads the updated rows
 * by primary key with the statement's snapshot, i.e. as they were before the upsert (a NULL
 * key for inserted rows: no index descent), so the counts of renewed and updated need no
 * lookup by (product, identity), whose plan depends on the always stale statistics of the
 * product being ingested; `updated` skips findings this report already touched in an earlier
 * batch. No indexed column changes on a plain re-sighting (status only for fixed -> renewed),
 * so with free space on the page the update is HOT (no index maintenance).
 */
export const UPSERT = `
WITH up AS (
  INSERT INTO findings AS f (${STAGED}, product_id, project_id, sla_days, sources,
    first_seen_at, last_seen_at, first_report_id, last_report_id)
  SELECT ${STAGED}, $1, $2,
    CASE severity WHEN 'CRITICAL' THEN $6::int WHEN 'HIGH' THEN $7::int WHEN 'MEDIUM' THEN $8::int
      WHEN 'LOW' THEN $9::int ELSE $10::int END,
    '{}'::jsonb, $3, $3, $4, $4
  FROM ${STAGE}
  ON CONFLICT (product_id, identity_hash) DO UPDATE SET
    last_seen_at = GREATEST(f.last_seen_at, EXCLUDED.last_seen_at),
    last_report_id = EXCLUDED.last_report_id,
    scanner = EXCLUDED.scanner,
    scanner_version = EXCLUDED.scanner_version,
    revision = COALESCE(EXCLUDED.revision, f.revision),
    baseline_state = EXCLUDED.baseline_state,
    suppressed = EXCLUDED.suppressed,
    kind = EXCLUDED.kind,
    fingerprints = EXCLUDED.fingerprints,
    content_digest = EXCLUDED.content_digest,
    service = COALESCE(f.service, EXCLUDED.service),
    component = COALESCE(f.component, EXCLUDED.component),
    component_version = COALESCE(f.component_version, EXCLUDED.component_version),
    related_locations = COALESCE(EXCLUDED.related_locations, f.related_locations),
    code_flows = COALESCE(EXCLUDED.code_flows, f.code_flows),
    rule_title = CASE WHEN f.rule_title IS NULL AND f.rule_id = EXCLUDED.rule_id
      THEN EXCLUDED.rule_title ELSE f.rule_title END,
    sources = CASE
      WHEN f.scanner = EXCLUDED.scanner AND f.rule_id = EXCLUDED.rule_id
        AND f.cve IS NOT DISTINCT FROM EXCLUDED.cve AND f.score IS NOT DISTINCT FROM EXCLUDED.score
        AND f.description = EXCLUDED.description
      THEN f.sources - EXCLUDED.scanner::text
      ELSE CASE WHEN f.sources ? f.scanner THEN f.sources
          ELSE f.sources || jsonb_build_object(f.scanner, jsonb_build_object('scanner', f.scanner,
            'scanner_version', f.scanner_version,
            'scanned_at', to_char(f.last_seen_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'rule_id', f.rule_id, 'cve', f.cve, 'score', f.score, 'description', f.description))
        END || jsonb_build_object(EXCLUDED.scanner, jsonb_build_object('scanner', EXCLUDED.scanner,
          'scanner_version', EXCLUDED.scanner_version, 'scanned_at', $5::text,
          'rule_id', EXCLUDED.rule_id, 'cve', EXCLUDED.cve, 'score', EXCLUDED.score,
          'description', EXCLUDED.description))
    END,
    status = CASE WHEN f.status = 'fixed' THEN 'renewed' ELSE f.status END,
    status_changed_at = CASE WHEN f.status = 'fixed' THEN now() ELSE f.status_changed_at END,
    updated_at = now()
  RETURNING f.id, (xmax = 0) AS inserted, f.severity
),
seen AS (
  SELECT up.id, up.inserted, old.status AS old_status, old.last_report_id AS old_report_id
    FROM up LEFT JOIN findings old
      ON old.id = CASE WHEN up.inserted THEN NULL ELSE up.id END
),
renewed_log AS (
  ${RENEWED_LOG}
),
created_log AS (
  ${CREATED_LOG}
)
SELECT count(*) FILTER (WHERE inserted)::int AS new,
  count(*) FILTER (WHERE old_status = 'fixed')::int AS renewed,
  count(*) FILTER (WHERE old_status <> 'fixed' AND old_report_id IS DISTINCT FROM $4)::int
    AS updated
FROM seen`;

/**
 * The `created` entries of INSERT_NEW: every row of its CTE `up` was inserted (its parameters
 * are UPSERT's without `$5`, so the SLA days are `$5`-`$9`; `$2` and `$4` as in UPSERT).
 */
const CREATED_LOG_ALL = insertFindingActionsSql(
  ['finding_id', 'project_id', 'actor_type', 'actor_label', 'action', 'to_value'],
  `SELECT id, $2, 'system', 'ingestion', 'created',
    jsonb_build_object('status', 'new', 'severity', severity, 'report_id', $4::text)
    FROM up`,
);

/**
 * UPSERT for a batch of identities the product does not have yet (a first ingest): a plain
 * insert, i.e. no speculative insertion (UPSERT probes the unique index before each row, then
 * inserts it with a speculative token and confirms it: one more index descent and WAL record
 * per row) and no read-back of updated rows; the rows and their `created` entries are exactly
 * UPSERT's for new identities. Run under a savepoint (findings-bulk-write.repository.ts): a
 * staged identity the product does have (another report's, or an earlier batch's of this
 * report) fails it on `uq_findings_product_id_identity_hash`, and the batch is upserted instead.
 * Parameters: `$1` product, `$2` project, `$3` seen at, `$4` report, `$5`-`$9` SLA days.
 */
export const INSERT_NEW = `
WITH up AS (
  INSERT INTO findings (${STAGED}, product_id, project_id, sla_days, sources,
    first_seen_at, last_seen_at, first_report_id, last_report_id)
  SELECT ${STAGED}, $1, $2,
    CASE severity WHEN 'CRITICAL' THEN $5::int WHEN 'HIGH' THEN $6::int WHEN 'MEDIUM' THEN $7::int
      WHEN 'LOW' THEN $8::int ELSE $9::int END,
    '{}'::jsonb, $3, $3, $4, $4
  FROM ${STAGE}
  RETURNING id, severity
),
created_log AS (
  ${CREATED_LOG_ALL}
)
SELECT count(*)::int AS new, 0 AS updated, 0 AS renewed FROM up`;

/**
 * The unchanged re-sightings of a batch (see ResultMemo): the findings whose last sighting had
 * the same content digest get exactly what the upsert would give them for the same result
 * (last seen, report, the batch's scanner version and revision, `fixed` -> `renewed` with its
 * action-log entry; `sources` stays as it is: only findings without a stored entry for their
 * scanner are in the memo, and the upsert drops that entry for a same-content re-sighting). A
 * finding changed since the memo was read (another report of the product, a deletion, a merge:
 * merged findings are never touched, see merged-identities.ts) no longer matches its digest:
 * `missing` lists it and the caller upserts the normalized result instead, in the same
 * transaction (`NOT IN` is a hashed subplan: hash joins are off for the batch, an anti-join
 * would compare every pair). Counts as in UPSERT; the update is HOT (no
 * indexed column changes) and goes by primary key. It names no product: the staged ids come
 * from the memo of this product (loadResultMemo) and a finding never changes product, and the
 * content digest must still match. A product condition let the planner walk the product's
 * findings against every staged row: right after a first ingest the product is not in the
 * statistics, estimated at 1 row (`f.product_id = $1`) or a few hundred
 * (`= (SELECT $1::uuid)`), and the walk (by ix_findings_product_id_id, a bitmap of it, or the
 * table) took 2.5-6 s per batch — a 100 000-result re-ingest in 60 s instead of 2, in about
 * one run of three (docs/benchmarks.md, issue 28; test/reports/resighting-plan.e2e-spec.ts).
 * $1 (the product) stays in the parameter list, shared with UPSERT, as a one-time test only.
 */
export const TOUCH = `
WITH up AS (
  UPDATE findings f SET
    last_seen_at = GREATEST(f.last_seen_at, $3::timestamptz),
    last_report_id = $4,
    scanner_version = $5,
    revision = COALESCE($6, f.revision),
    status = CASE WHEN f.status = 'fixed' THEN 'renewed' ELSE f.status END,
    status_changed_at = CASE WHEN f.status = 'fixed' THEN now() ELSE f.status_changed_at END,
    updated_at = now()
  FROM ${RESIGHTED_STAGE} s
  WHERE f.id = s.finding_id AND f.content_digest = s.content_digest AND $1::uuid IS NOT NULL
    AND NOT (f.sources ? f.scanner::text) AND f.merged_into_id IS NULL
  RETURNING f.id
),
seen AS (
  SELECT up.id, old.status AS old_status, old.last_report_id AS old_report_id
    FROM up JOIN findings old ON old.id = up.id
),
renewed_log AS (
  ${RENEWED_LOG}
)
SELECT count(*) FILTER (WHERE old_status = 'fixed')::int AS renewed,
  count(*) FILTER (WHERE old_status <> 'fixed' AND old_report_id IS DISTINCT FROM $4)::int
    AS updated,
  (SELECT coalesce(array_agg(s.finding_id::text), '{}') FROM ${RESIGHTED_STAGE} s
    WHERE s.finding_id NOT IN (SELECT id FROM up)) AS missing
FROM seen`;
