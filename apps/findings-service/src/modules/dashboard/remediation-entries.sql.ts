/**
 * Moves to `fixed` in [from, to) from the action log (partial index
 * `ix_finding_actions_closing_at`): the finding, when, the deadline the finding had at that
 * moment (`from.sla_due_at`, written by every status change while a clock was started) and
 * the last re-detection before it (`renewed` entry), if any. Mean time to remediate counts from
 * that re-detection, else from the finding's first sighting.
 */
export function fixedEntriesSql(from: string, to: string): string {
  return `SELECT a.finding_id, a.at, (a.from_value ->> 'sla_due_at')::timestamptz AS due,
    (SELECT max(r.at) FROM finding_actions r
      WHERE r.finding_id = a.finding_id AND r.action = 'renewed' AND r.at < a.at) AS renewed_at
  FROM finding_actions a
 WHERE a.action = 'status_changed'
   AND (a.to_value ->> 'status') IN ('fixed', 'wont_fix', 'false_positive')
   AND (a.to_value ->> 'status') = 'fixed'
   AND a.at >= ${from}::timestamptz AND a.at < ${to}::timestamptz`;
}

/** Hours from detection (or re-detection) to the fix, for the rows of fixedEntriesSql as `x`. */
export const REMEDIATION_HOURS_SQL =
  'EXTRACT(EPOCH FROM (x.at - COALESCE(x.renewed_at, f.first_seen_at))) / 3600';
