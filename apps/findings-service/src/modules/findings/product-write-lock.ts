import type { EntityManager } from 'typeorm';

/**
 * Holds the product row FOR KEY SHARE until the transaction ends; false when the product is
 * gone. Every transaction that inserts findings takes it first (findings.product_id has no
 * foreign key, see FindingEntity.product): a product deletion, which locks the row FOR UPDATE,
 * then waits for those writers and deletes what they committed, and a writer that comes after
 * the deletion finds no product and writes nothing. Concurrent writers do not block each other.
 */
export async function lockProductForWrite(
  manager: EntityManager,
  productId: string,
): Promise<boolean> {
  const rows = (await manager.query(`SELECT 1 FROM products WHERE id = $1 FOR KEY SHARE`, [
    productId,
  ])) as unknown[];
  return rows.length > 0;
}
