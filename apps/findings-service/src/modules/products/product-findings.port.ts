import type { EntityManager } from 'typeorm';

/**
 * What deleting a product does to its findings. The findings module owns the `findings` table
 * and implements this (findings/cascades); the composition roots bind it. Products sits below
 * findings and never imports it.
 */
export abstract class ProductFindings {
  /**
   * Deletes every finding of the product in the caller's transaction, which holds the product
   * row FOR UPDATE (findings.product_id has no foreign key, see lockProductForWrite).
   */
  abstract deleteFindingsOfProduct(manager: EntityManager, productId: string): Promise<void>;
}
