import type { EntityManager } from 'typeorm';
import { STAGE } from './findings-bulk-write.sql';

/**
 * Manual merges in ingestion (docs/findings-service/merge.md#ingestion). A merged finding keeps
 * its row intact (an unmerge restores it exactly), so a report that still yields its identity
 * must re-sight its survivor instead: before the upsert, the staged rows whose identity belongs
 * to a merged finding of the product take the survivor's identity. Set-based, one statement;
 * deduplicated so that the upsert never meets one finding twice: a rewritten row is dropped when
 * the batch also holds the survivor's own identity, or another rewritten row for the same
 * survivor (the first by position stays). Run only for a product that has merged findings
 * (PRODUCT_HAS_MERGES, a probe of a small partial index), so other products pay nothing.
 * $1 is the product.
 */
export const REDIRECT_MERGED = `
WITH m AS (
  SELECT s.ctid AS row_id, sv.identity_hash AS to_hash
    FROM ${STAGE} s
    JOIN findings f ON f.product_id = $1 AND f.identity_hash = s.identity_hash
    JOIN findings sv ON sv.id = f.merged_into_id
   WHERE f.merged_into_id IS NOT NULL
),
dropped AS (
  DELETE FROM ${STAGE} s USING m
   WHERE s.ctid = m.row_id
     AND (EXISTS (SELECT 1 FROM ${STAGE} o WHERE o.identity_hash = m.to_hash)
       OR EXISTS (SELECT 1 FROM m m2 WHERE m2.to_hash = m.to_hash AND m2.row_id < m.row_id))
  RETURNING m.row_id
)
UPDATE ${STAGE} s SET identity_hash = m.to_hash
  FROM m
 WHERE s.ctid = m.row_id AND m.row_id NOT IN (SELECT row_id FROM dropped)`;

/** Whether the product has any merged finding (partial index ix_findings_merged_product_id). */
export const PRODUCT_HAS_MERGES = `SELECT EXISTS (
  SELECT 1 FROM findings WHERE product_id = $1 AND merged_into_id IS NOT NULL) AS merged`;

/**
 * Rewrites the staged batch's identities of merged findings to their survivors' (REDIRECT_MERGED)
 * when the product has merged findings. Called inside the batch's transaction, after the product
 * is held FOR KEY SHARE: a merge holds it FOR UPDATE, so the merges seen here cannot change
 * before the batch commits.
 */
export async function redirectMergedIdentities(
  manager: EntityManager,
  productId: string,
  /** The batch's own probe already found merged findings (batch-round-trips.ts openBatch). */
  knownMerged = false,
): Promise<void> {
  if (!knownMerged) {
    const rows = (await manager.query(PRODUCT_HAS_MERGES, [productId])) as { merged: boolean }[];
    if (!rows[0]?.merged) return;
  }
  // The batch runs with hash joins off (PREPARE_STAGE: its upsert probes by key); matching the
  // staged identities against the product's merged findings wants them, for this statement only.
  await manager.query('SET LOCAL enable_hashjoin = on');
  await manager.query(REDIRECT_MERGED, [productId]);
  await manager.query('SET LOCAL enable_hashjoin = off');
}
