import type { EntityManager } from 'typeorm';

/**
 * What new enrichment tags do to the findings (`findings.enrichment_tags`, the union of every
 * enricher's `key:value`, searchable with the finding). The findings module owns the `findings`
 * table and implements this (findings/cascades); the composition roots bind it. Enrichment sits
 * below findings and never imports it.
 */
export abstract class EnrichedFindings {
  /**
   * Recomputes `enrichment_tags` of the findings from `finding_enrichment_tags`, one statement
   * in the caller's transaction.
   */
  abstract refreshEnrichmentTags(
    manager: EntityManager,
    findingIds: readonly string[],
  ): Promise<void>;
}
