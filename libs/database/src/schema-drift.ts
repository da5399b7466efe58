import type { DataSource } from 'typeorm';

/**
 * The SQL TypeORM would generate to bring the database schema in line with the entities
 * (what `migration:generate` would write). Empty when the migrations match the entities.
 * The data source must be initialized and its migrations applied.
 */
export async function detectSchemaDrift(dataSource: DataSource): Promise<string[]> {
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}
