import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { InstalledPlugin } from '../plugins/installed-plugins/installed-plugin';

export class EnrichmentTagDto {
  @ApiProperty({ example: 'owner' }) key!: string;
  @ApiProperty({ example: 'team-web' }) value!: string;
}

/** Answer of POST /findings/{id}/enrich-tags/{plugin_id}. */
export class ManualEnrichmentDto {
  @ApiProperty({ format: 'uuid' }) finding_id!: string;
  @ApiProperty({ format: 'uuid' }) plugin_id!: string;
  @ApiProperty({ type: [EnrichmentTagDto], description: "this enricher's tags now on the finding" })
  tags!: EnrichmentTagDto[];
  @ApiProperty({
    type: [String],
    description: 'all enrichment tags of the finding (`key:value`), every enricher',
  })
  enrichment_tags!: string[];
}

/** One enabled plugin offering a capability (GET /plugins/capabilities/...). */
export class PluginCapabilityDto {
  @ApiProperty({ format: 'uuid', description: 'installed plugin id (the `plugin_id` of routes)' })
  id!: string;
  @ApiProperty({ example: 'cmdb-enricher' }) catalog_plugin_id!: string;
  @ApiProperty({ example: '1.0.0' }) version!: string;
  @ApiProperty({ enum: ['wasm', 'native'] }) runtime!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) description!: string | null;

  static from(plugin: InstalledPlugin): PluginCapabilityDto {
    return {
      id: plugin.id,
      catalog_plugin_id: plugin.catalogPluginId,
      version: plugin.version,
      runtime: plugin.runtime,
      description: plugin.manifest.description ?? null,
    };
  }
}
