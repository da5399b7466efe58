import { FINDING_STATUS_GROUPS } from '../findings/finding-status';

/** Attention states: the only states an automatic closure moves from. */
export const ATTENTION = `ARRAY[${FINDING_STATUS_GROUPS.attention.map((s) => `'${s}'`).join(',')}]::text[]`;

/** Why a check counted nothing as absent: another report of the product was still ingesting. */
export const REPORT_PENDING = 'report_pending';

/**
 * The key of where a finding lives, the unit of a report's coverage
 * (docs/findings-service/auto-closure.md#coverage): `f:<path>` for code, `h:<host>` for network
 * and web findings (host of the address, lower-case; the IP when there is no name).
 */
export function locationKeySql(f: string): string {
  return `CASE ${f}.identity_kind
    WHEN 'code' THEN CASE WHEN ${f}.file_path <> '' THEN 'f:' || ${f}.file_path END
    WHEN 'web' THEN 'h:' || lower(substring(${f}.url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(\\[[^]]*\\]|[^:/?#]*)'))
    ELSE 'h:' || lower(COALESCE(NULLIF(${f}.host, ''), ${f}.ip)) END`;
}

/** A jsonb array member of a run's coverage, or an empty array when it is not one. */
const list = (member: string) =>
  `CASE WHEN jsonb_typeof(run.c->'${member}') = 'array' THEN run.c->'${member}' ELSE '[]' END`;

/**
 * The candidates of a report, in one pass over the product's findings ($1 report, $2 product,
 * $3 the report's upload time). A narrow projection of the rows of the report's
 * scanners that the report saw, or that could be candidates, is read once (`prod`) and serves
 * twice: the keys the report covered (with the files and hosts its runs list), and the
 * candidates themselves (not seen, in an attention state, last seen before the report, covered).
 * A run with skipped results or an unfinished tool, and files the tool failed on, give
 * `undetermined` candidates. Answers the number of candidates. (A finding the report saw again
 * keeps its counter row as it is: every use compares the counter's `basis_seen_at` with the
 * finding's `last_seen_at`, so a sighting ends the streak without a write here.)
 */
export const SELECT_CANDIDATES_SQL = `
  WITH run AS (
    SELECT c->>'scanner' AS scanner,
           COALESCE((c->>'incomplete')::boolean, false)
             OR COALESCE((c->>'skipped')::int, 0) > 0 AS undecided,
           c
      FROM reports r, jsonb_array_elements(COALESCE(r.coverage,
             -- written before coverage was recorded: nothing can be decided
             jsonb_build_array(jsonb_build_object('scanner', r.scanner, 'incomplete', true)))) c
     WHERE r.id = $1 AND jsonb_typeof(c) = 'object'
  ), scanners AS (
    SELECT scanner, bool_or(undecided) AS undecided FROM run GROUP BY scanner
  ), prod AS MATERIALIZED (
    SELECT f.id, f.project_id, f.scanner, f.last_seen_at, f.last_report_id, s.undecided,
           f.last_report_id IS NOT DISTINCT FROM $1::uuid AS seen,
           ${locationKeySql('f')} AS k
      FROM findings f JOIN scanners s ON s.scanner = f.scanner
     WHERE f.product_id = $2 AND f.merged_into_id IS NULL
       AND (f.last_report_id = $1 OR (f.status = ANY(${ATTENTION}) AND f.last_seen_at < $3))
  ), covered AS (
    SELECT DISTINCT scanner, k FROM prod WHERE seen AND k IS NOT NULL
    UNION
    SELECT run.scanner, 'f:' || x FROM run, jsonb_array_elements_text(${list('files')}) x
    UNION
    SELECT run.scanner, 'h:' || lower(x) FROM run, jsonb_array_elements_text(${list('hosts')}) x
  ), failed AS (
    SELECT DISTINCT run.scanner, 'f:' || x AS k
      FROM run, jsonb_array_elements_text(${list('failed_files')}) x
  ), inserted AS (
    INSERT INTO auto_closure_candidates
      (report_id, finding_id, project_id, product_id, scanner, seen_at, seen_report_id, result)
    SELECT $1, p.id, p.project_id, $2, p.scanner, p.last_seen_at, p.last_report_id,
           CASE WHEN p.undecided OR (p.scanner, p.k) IN (SELECT scanner, k FROM failed)
                THEN 'undetermined' ELSE 'absent' END
      FROM prod p
     WHERE NOT p.seen AND (p.scanner, p.k) IN (SELECT scanner, k FROM covered)
    RETURNING 1
  )
  SELECT count(*)::int AS candidates FROM inserted`;

/** An absent verdict continues the streak (same scanner, not seen since it was counted). */
const CONTINUES = `a.streak > 0 AND a.scanner = EXCLUDED.scanner AND a.basis_seen_at = EXCLUDED.basis_seen_at`;

/** Candidates seen again since their selection (by any report): `present` ($1 report). */
export const MARK_PRESENT_SQL = `
  UPDATE auto_closure_candidates c SET result = 'present'
    FROM findings f
   WHERE c.report_id = $1 AND f.id = c.finding_id AND c.result = 'absent'
     AND (f.last_seen_at <> c.seen_at OR f.last_report_id IS DISTINCT FROM c.seen_report_id)`;

/**
 * The last step of a check ($1 report, $2 now, $3 required checks, $4 the check is undecided),
 * from the candidates alone (they carry what the counters need; changes since the selection were
 * marked by MARK_PRESENT_SQL whenever a report of the product completed meanwhile):
 * - `absent`: the streak grows by one if it was counted for the same scanner and the finding
 *   was not seen since (`basis_seen_at` = the sighting the candidate was selected with), else it
 *   starts at 1;
 * - `present` and `undetermined`: an existing streak ends (0).
 * A finding seen by anything else meanwhile (or moved out of the attention states) is caught
 * where it matters: closure requires `last_seen_at = basis_seen_at` and an attention state.
 * Returns the counts, and how many findings reached the required checks with this one.
 */
export const COUNT_VERDICTS_SQL = `
  WITH judged AS MATERIALIZED (
    SELECT c.finding_id AS id, c.project_id, c.product_id, c.scanner, c.seen_at,
           CASE WHEN c.result = 'absent' AND $4 THEN 'undetermined' ELSE c.result END AS verdict
      FROM auto_closure_candidates c
     WHERE c.report_id = $1
  ), absent AS (
    INSERT INTO finding_absences AS a
      (finding_id, project_id, product_id, scanner, streak, streak_started_at, basis_seen_at,
       check_reports, last_result, last_report_id, last_check_at, updated_at)
    SELECT j.id, j.project_id, j.product_id, j.scanner, 1, $2, j.seen_at,
           ARRAY[$1::uuid], 'absent', $1, $2, $2
      FROM judged j WHERE j.verdict = 'absent'
    ON CONFLICT (finding_id) DO UPDATE SET
      streak = CASE WHEN ${CONTINUES} THEN a.streak + 1 ELSE 1 END,
      streak_started_at = CASE WHEN ${CONTINUES}
                               THEN a.streak_started_at ELSE EXCLUDED.streak_started_at END,
      check_reports = CASE WHEN ${CONTINUES}
                           THEN (a.check_reports || EXCLUDED.check_reports)[
                                  greatest(1, cardinality(a.check_reports) - 8):]
                           ELSE EXCLUDED.check_reports END,
      scanner = EXCLUDED.scanner, basis_seen_at = EXCLUDED.basis_seen_at,
      last_result = 'absent', last_report_id = EXCLUDED.last_report_id,
      last_check_at = EXCLUDED.last_check_at, updated_at = EXCLUDED.updated_at
    RETURNING a.streak
  ), ended AS (
    UPDATE finding_absences a SET streak = 0, streak_started_at = NULL, check_reports = '{}',
           last_result = j.verdict, last_report_id = $1, last_check_at = $2, updated_at = $2
      FROM judged j
     WHERE j.verdict IN ('present', 'undetermined') AND a.finding_id = j.id
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM absent)::int AS absent,
         (SELECT count(*) FROM absent WHERE streak >= $3)::int AS reached,
         (SELECT count(*) FROM ended)::int AS ended,
         count(*)::int AS candidates,
         count(*) FILTER (WHERE verdict = 'present')::int AS present,
         count(*) FILTER (WHERE verdict = 'undetermined')::int AS undetermined
    FROM judged`;
