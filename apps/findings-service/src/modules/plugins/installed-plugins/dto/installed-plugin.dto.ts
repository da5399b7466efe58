import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import type { InstalledPlugin } from '../installed-plugin';

const notSideload = (o: { source_type?: unknown }) => o.source_type !== 'sideload';

export class InstallPluginDto {
  @ApiProperty({
    enum: ['marketplace'],
    description: '`marketplace` only; `sideload` is refused here (use /sideload)',
  })
  @IsIn(['marketplace', 'sideload'])
  source_type!: 'marketplace' | 'sideload';

  @ApiProperty({ format: 'uuid' })
  @ValidateIf(notSideload)
  @IsUUID()
  marketplace_id!: string;

  @ApiProperty({ example: 'zone-enricher', maxLength: 100 })
  @ValidateIf(notSideload)
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  catalog_plugin_id!: string;

  @ApiPropertyOptional({
    enum: ['wasm', 'native'],
    default: 'wasm',
    description: 'Notification channels need native, from a signed source with allows_native',
  })
  @OptionalNotNull()
  @IsIn(['wasm', 'native'])
  runtime?: 'wasm' | 'native';

  @ApiPropertyOptional({
    example: '1.0.8',
    description: "A version of the catalog entry's history; the newest when absent",
  })
  @OptionalNotNull()
  @IsString()
  @Matches(/^\d{1,9}\.\d{1,9}\.\d{1,9}(-[0-9A-Za-z.-]{1,64})?$/)
  version?: string;
}

export class UpdateInstalledPluginDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Non-secret settings by name (null removes one). A secret-marked name here is refused.',
  })
  @OptionalNotNull()
  @IsObject()
  settings?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
    description:
      'Secret-marked settings by name: "" leaves the value unchanged, null removes it. Never returned.',
    writeOnly: true,
  })
  @OptionalNotNull()
  @IsObject()
  secret_settings?: Record<string, string | null>;
}

export class ChangePluginVersionDto {
  @ApiPropertyOptional({ description: 'A version of the catalog history; the newest when absent' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^\d{1,9}\.\d{1,9}\.\d{1,9}(-[0-9A-Za-z.-]{1,64})?$/)
  version?: string;

  @ApiPropertyOptional({
    description: 'Required to install a version older than the installed one',
  })
  @OptionalNotNull()
  @IsBoolean()
  confirm_downgrade?: boolean;
}

export class PluginSettingSchemaDto {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['string', 'url', 'integer', 'boolean', 'json'] }) type!: string;
  @ApiProperty() required!: boolean;
  @ApiProperty() secret!: boolean;
  @ApiProperty() per_project!: boolean;
  @ApiPropertyOptional() description?: string;
}

export class PendingPluginVersionDto {
  @ApiProperty() version!: string;
  @ApiProperty({ type: [String] }) capabilities!: string[];
  @ApiProperty({ type: [String], description: 'Capabilities the installed version lacks' })
  added_capabilities!: string[];
  @ApiProperty({ format: 'date-time' }) held_at!: string;
}

export class InstalledPluginDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['marketplace', 'sideload'] }) source_type!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) marketplace_id!: string | null;
  @ApiProperty() catalog_plugin_id!: string;
  @ApiProperty({ enum: ['wasm', 'native'] }) runtime!: string;
  @ApiProperty({ description: 'An installed plugin does nothing until enabled' })
  enabled!: boolean;
  @ApiProperty() version!: string;
  @ApiProperty() artifact_sha256!: string;
  @ApiProperty({ type: [String] }) capabilities!: string[];
  @ApiProperty({ type: 'object', additionalProperties: true }) settings!: Record<string, unknown>;
  @ApiProperty({ type: [String], description: 'Secret settings that have a value (names only)' })
  secret_settings_set!: string[];
  @ApiProperty({ type: [PluginSettingSchemaDto] }) settings_schema!: PluginSettingSchemaDto[];
  @ApiProperty({ type: PendingPluginVersionDto, nullable: true })
  pending_version!: PendingPluginVersionDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(p: InstalledPlugin): InstalledPluginDto {
    return {
      id: p.id,
      source_type: p.sourceType,
      marketplace_id: p.marketplaceId,
      catalog_plugin_id: p.catalogPluginId,
      runtime: p.runtime,
      enabled: p.enabled,
      version: p.version,
      artifact_sha256: p.artifactSha256,
      capabilities: p.capabilities,
      settings: p.settings,
      secret_settings_set: p.secretSettingsSet,
      settings_schema: p.manifest.settings.map((s) => ({
        name: s.name,
        type: s.type,
        required: s.required === true,
        secret: s.secret === true,
        per_project: s.per_project === true,
        ...(s.description ? { description: s.description } : {}),
      })),
      pending_version: p.pendingVersion
        ? {
            version: p.pendingVersion.version,
            capabilities: p.pendingVersion.capabilities,
            added_capabilities: p.pendingVersion.added_capabilities,
            held_at: p.pendingVersion.held_at,
          }
        : null,
      created_at: p.createdAt.toISOString(),
      updated_at: p.updatedAt.toISOString(),
    };
  }
}
