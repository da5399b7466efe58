import { insertFindingActionsSql } from '../../action-log/finding-actions.sql';
import { INSERT_NEW, STAGE, UPSERT } from '../bulk-write/findings-bulk-write.sql';

/**
 * What the findings module lets the suppression module (modules/suppression) do to findings:
 * the only writers of `findings.suppression_rule_id` / `suppressed_at`
 * (docs/findings-service/suppression.md). Each statement is set-based and logs one action-log
 * entry per finding it changes, in the same statement. A predicate is a boolean SQL expression
 * over `findings f` whose placeholders start after the statement's own parameters.
 */

/**
 * One chunk of a rule's run over the accumulated findings: the project's next `$3` findings by
 * id after `$2`, of which those not yet suppressed (by this or another rule: the first rule
 * keeps them) and not merged that match get rule `$4`, each with a `suppressed` entry by actor
 * `$5`-`$7`. A merged finding (`merged_into_id` set) is walked but never written: it must stay
 * as it was so that an unmerge is exact (docs/findings-service/merge.md).
 * Placeholders of the predicate start at `$8`. Returns the chunk's last id (NULL: the walk is
 * over), the findings walked and the findings suppressed.
 */
export function suppressChunkSql(predicate: string): string {
  const log = insertFindingActionsSql(
    ['finding_id', 'project_id', 'actor_type', 'actor_id', 'actor_label', 'action', 'to_value'],
    `SELECT id, project_id, $5, $6::uuid, $7, 'suppressed',
      jsonb_build_object('suppression_rule_id', $4::text) FROM hit`,
  );
  return `
WITH chunk AS (
  SELECT f.id FROM findings f WHERE f.project_id = $1 AND f.id > $2::uuid ORDER BY f.id LIMIT $3
), hit AS (
  UPDATE findings f SET suppression_rule_id = $4::uuid, suppressed_at = now()
    FROM chunk c
   WHERE f.id = c.id AND f.suppression_rule_id IS NULL AND f.merged_into_id IS NULL
     AND (${predicate}) IS TRUE
  RETURNING f.id, f.project_id
), logged AS (
  ${log}
  RETURNING 1
)
SELECT (SELECT c.id FROM chunk c ORDER BY c.id DESC LIMIT 1)::text AS last_id,
  (SELECT count(*) FROM chunk)::int AS walked,
  (SELECT count(*) FROM logged)::int AS matched`;
}

/**
 * Releases findings of project `$1` suppressed by rule `$2`: all of them (`predicate`
 * undefined: the rule was disabled or deleted), or those that no longer match the rule's new
 * text. Each gets an `unsuppressed` entry by actor `$3`-`$5` naming the cause `$6`; the
 * predicate's placeholders start at `$7`. Returns how many were released.
 */
export function releaseSql(predicate?: string): string {
  const log = insertFindingActionsSql(
    [
      'finding_id',
      'project_id',
      'actor_type',
      'actor_id',
      'actor_label',
      'action',
      'from_value',
      'to_value',
    ],
    `SELECT id, project_id, $3, $4::uuid, $5, 'unsuppressed',
      jsonb_build_object('suppression_rule_id', $2::text), jsonb_build_object('cause', $6::text)
      FROM released`,
  );
  const still = predicate ? ` AND (${predicate}) IS NOT TRUE` : '';
  return `
WITH released AS (
  UPDATE findings f SET suppression_rule_id = NULL, suppressed_at = NULL
   WHERE f.suppression_rule_id = $2::uuid AND f.project_id = $1${still}
  RETURNING f.id, f.project_id
), logged AS (
  ${log}
  RETURNING 1
)
SELECT count(*)::int AS released FROM logged`;
}

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + from.length) >= 0) {
    throw new Error(`ingestion upsert changed shape: cannot find "${from.slice(0, 60)}"`);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/**
 * The staged row's text columns lower-cased once per row (lateral `l`, columns `lc_<name>`): the
 * rules compare them with lower-cased LIKE patterns instead of ILIKE, which lower-cases both
 * sides on every comparison (50 rules are ~150 comparisons a row).
 */
export const LOWERED_STAGE_COLUMNS = [
  'scanner',
  'rule_id',
  'file_path',
  'host',
  'component',
  'cve',
] as const;

/**
 * The lateral of the lower-cased columns that `ruleCase` reads (`l.lc_<name>`) over a row `s`
 * (ingestion's staged row; a finding source's polled row, polled-findings.sql.ts).
 */
export function loweredStage(ruleCase: string): string {
  const used = LOWERED_STAGE_COLUMNS.filter((c) => ruleCase.includes(`l.lc_${c}`));
  const columns = used.map((c) => `lower(s.${c}) AS lc_${c}`);
  return `(SELECT ${columns.length > 0 ? columns.join(', ') : 'NULL AS lc_none'} OFFSET 0) l`;
}

/** The rules' additions to a statement of the write path that inserts the staged rows (see below). */
function withRules(statement: string, ruleCase: string, returning: [string, string]): string {
  let sql = replaceOnce(
    statement,
    `product_id, project_id, sla_days, sources,`,
    `product_id, project_id, sla_days, sources, suppression_rule_id, suppressed_at,`,
  );
  sql = replaceOnce(
    sql,
    `'{}'::jsonb, $3, $3, $4, $4\n  FROM ${STAGE}\n`,
    `'{}'::jsonb, sup.by_rule, CASE WHEN sup.by_rule IS NOT NULL THEN now() END, $3, $3, $4, $4\n  FROM ${STAGE} s CROSS JOIN LATERAL ${loweredStage(ruleCase)}\n    CROSS JOIN LATERAL (SELECT ${ruleCase} AS by_rule OFFSET 0) sup\n`,
  );
  sql = replaceOnce(sql, returning[0], returning[1]);
  // One object per row either way (no `||` of two objects per inserted row).
  return replaceOnce(
    sql,
    `jsonb_build_object('status', 'new', 'severity', severity, 'report_id', $4::text)`,
    `CASE WHEN suppression_rule_id IS NULL
        THEN jsonb_build_object('status', 'new', 'severity', severity, 'report_id', $4::text)
        ELSE jsonb_build_object('status', 'new', 'severity', severity, 'report_id', $4::text,
          'suppression_rule_id', suppression_rule_id::text) END`,
  );
}

/**
 * The ingestion upsert (findings-bulk-write.sql.ts UPSERT) for a project with enabled rules:
 * `ruleCase` (an expression over the staged row `s` and its lower-cased text `l` yielding the first matching rule's id or
 * NULL, its placeholders after UPSERT's ten) is evaluated once per staged row; an inserted
 * finding takes it with `suppressed_at`, and its `created` entry names the rule. `OFFSET 0`
 * keeps both laterals from being pulled up: pulled up, each reference to `l.lc_*` and to
 * `sup.by_rule` would be replaced by its expression and evaluated again (the rules twice per
 * row, `lower()` once per comparison). A re-sighted
 * finding is not changed (the conflict update does not name the columns).
 */
export function suppressingUpsertSql(ruleCase: string): string {
  return withRules(UPSERT, ruleCase, [
    `RETURNING f.id, (xmax = 0) AS inserted, f.severity`,
    `RETURNING f.id, (xmax = 0) AS inserted, f.severity, f.suppression_rule_id`,
  ]);
}

/**
 * INSERT_NEW (a product's first report, findings-bulk-write.sql.ts) with the rules, as
 * suppressingUpsertSql does for UPSERT: the inserted rows and their `created` entries are
 * exactly the upsert's for new identities. `ruleCase`'s placeholders follow INSERT_NEW's nine.
 */
export function suppressingInsertNewSql(ruleCase: string): string {
  return withRules(INSERT_NEW, ruleCase, [
    `RETURNING id, severity`,
    `RETURNING id, severity, suppression_rule_id`,
  ]);
}
