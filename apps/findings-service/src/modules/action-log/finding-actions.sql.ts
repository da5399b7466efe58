/** Columns of `finding_actions` a writer may fill (`id` is generated, `at` defaults to `now()`). */
export type FindingActionColumn =
  | 'finding_id'
  | 'project_id'
  | 'actor_type'
  | 'actor_id'
  | 'actor_label'
  | 'action'
  | 'from_value'
  | 'to_value'
  | 'at';

/**
 * `INSERT INTO finding_actions (<columns>) <rows>`: the action-log entries a set-based statement
 * of another module writes in its own transaction, as one of its data-modifying CTEs (add
 * `RETURNING ...` to count them) or as a statement of its own. `rows` is a `SELECT` yielding
 * the columns in the order given, with the caller's parameters; one statement however many
 * findings it logs. The action log is append-only: entries are never updated or deleted.
 */
export function insertFindingActionsSql(
  columns: readonly FindingActionColumn[],
  rows: string,
): string {
  return `INSERT INTO finding_actions (${columns.join(', ')})
  ${rows}`;
}
