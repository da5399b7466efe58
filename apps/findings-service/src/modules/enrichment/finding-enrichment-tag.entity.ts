import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The enrichment tags one enricher wrote on one finding (its last successful enrichment).
 * `findings.enrichment_tags` holds the union of every enricher's tags as `key:value` text
 * (what lists, filters and the finding record show); this table lets each enricher replace
 * only its own tags.
 */
@Entity('finding_enrichment_tags')
@Index('ix_finding_enrichment_tags_plugin', ['installedPluginId'])
export class FindingEnrichmentTagEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_enrichment_tags' })
  findingId!: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_finding_enrichment_tags' })
  installedPluginId!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'PK_finding_enrichment_tags',
  })
  key!: string;

  @Column({ type: 'text' }) value!: string;

  @Column({ type: 'timestamptz' }) enrichedAt!: Date;
}
