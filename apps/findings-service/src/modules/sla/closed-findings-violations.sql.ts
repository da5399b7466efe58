/**
 * `UPDATE sla_violations ...`: resolves, as `finding_closed`, the open deadline violations of the
 * findings another module's statement just closed — a data-modifying CTE of that statement, in
 * its transaction (the lifecycle's status change, findings/lifecycle/status-change.sql.ts). The
 * sla module owns `sla_violations`; nothing else writes it.
 *
 * `closed` names a relation of the caller's statement (a CTE) whose `id` column holds the
 * finding ids; `at` and the actor's type, id and label are SQL expressions (the caller's
 * parameters). Add `RETURNING ...` to count them.
 */
export function resolveClosedFindingsViolationsSql(args: {
  closed: string;
  at: string;
  actorType: string;
  actorId: string;
  actorLabel: string;
}): string {
  return `UPDATE sla_violations v SET resolved_at = ${args.at}, resolution = 'finding_closed',
    resolved_by_type = ${args.actorType}, resolved_by_id = ${args.actorId}, resolved_by_label = ${args.actorLabel}
    FROM ${args.closed} c WHERE v.finding_id = c.id AND v.resolved_at IS NULL`;
}
