/**
 * Creates the products of `names` missing in the project (a name that exists is left as it is),
 * one statement for any number of names, run by the caller in its own transaction:
 * `manager.query(sql, values)` (a finding source's poll). The products module owns `products`.
 */
export function insertMissingProductsSql(
  projectId: string,
  names: readonly string[],
): { sql: string; values: unknown[] } {
  return {
    sql: `INSERT INTO products (project_id, name) SELECT $1, unnest($2::varchar[])
       ON CONFLICT (project_id, name) DO NOTHING`,
    values: [projectId, names],
  };
}
