import type { PoolClient, QueryResult } from 'pg';

/** A batch's report row as its transaction locked it. */
export interface LockedReport {
  status: string;
  processed_batches: number;
  cancelled: boolean;
}

/** What the opening round trip of a batch found (undefined: the product is gone). */
export interface OpenedBatch {
  /** The report row, locked FOR UPDATE (undefined: the report is gone). */
  report: LockedReport | undefined;
  /** Whether the product has merged findings (merged-identities.ts). */
  merged: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The start of a batch's transaction in one round trip (a simple-query string of several
 * statements, the two ids inlined after a strict check: both come from the report row): the
 * product FOR KEY SHARE (lockProductForWrite; a product deletion waits for the batch, and a batch
 * after the deletion finds nothing), then the report FOR UPDATE, in that order as before; the
 * product's merged-findings probe (PRODUCT_HAS_MERGES, valid until the commit: a merge holds the
 * product FOR UPDATE). These and the staging table's settings were four round trips per batch,
 * each a wake-up of the backend and of this thread; the settings now go with the staging, which
 * runs before the batch's turn (FindingsBulkWriteRepository.writeBatch).
 */
export async function openBatch(
  client: PoolClient,
  productId: string,
  reportId: string,
): Promise<OpenedBatch | undefined> {
  if (!UUID.test(productId) || !UUID.test(reportId)) {
    throw new Error('ingestion batch: product or report id is not a uuid');
  }
  const statements = [
    `SELECT 1 AS held FROM products WHERE id = '${productId}' FOR KEY SHARE`,
    `SELECT status, processed_batches, cancel_requested_at IS NOT NULL AS cancelled
       FROM reports WHERE id = '${reportId}' FOR UPDATE`,
    `SELECT EXISTS (SELECT 1 FROM findings
       WHERE product_id = '${productId}' AND merged_into_id IS NOT NULL) AS merged`,
  ];
  const results = (await client.query(statements.join(';\n'))) as unknown as QueryResult[];
  if (results[0].rows.length === 0) return undefined;
  return {
    report: results[1].rows[0] as LockedReport | undefined,
    merged: (results[2].rows[0] as { merged: boolean }).merged,
  };
}

/**
 * A statement of the write path as a named prepared statement of the connection: parsed and
 * planned once per connection instead of once per batch (the upsert's planning took ~1.5-6 ms of
 * each batch). The plans are the same: every batch runs with hash and merge joins off
 * (PREPARE_STAGE), the staged rows have no statistics, and none of these statements names a
 * product's rows by anything but a key.
 */
export async function preparedQuery<Row>(
  client: PoolClient,
  name: string,
  text: string,
  values: unknown[],
): Promise<Row[]> {
  return (await client.query({ name, text, values })).rows as Row[];
}
