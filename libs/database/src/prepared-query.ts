import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The node-pg pool under a TypeORM data source (PostgreSQL): its connections, for statements
 * that bypass TypeORM's query building and hydration, and its counts.
 */
export function pgPool(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * One named prepared statement on the data source's pool, outside any transaction: each
 * connection parses and plans `text` once under `name`, later calls only bind and execute.
 * For statements on every request — reads, or one self-contained write (its own implicit
 * transaction) — where TypeORM's query runner, query building and hydration, and the
 * server's parse and plan of each call, cost more than the work (docs/benchmarks.md, issue
 * 34). `name` must be unique per `text` in the process (a statement built with variants needs
 * a name per variant); the rows come back as node-pg returns them (snake_case columns, parsed
 * types).
 */
export async function preparedQuery<Row extends QueryResultRow>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  const result = await pgPool(dataSource).query<Row>({ name, text, values });
  return result.rows;
}
