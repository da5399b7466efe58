import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import type { PluginSourceEntity } from '../plugin-source.entity';

const KEY_DESCRIPTION =
  'Ed25519 publisher key, PEM (SPKI). Write-only: never returned. Without it the source is unsigned: signatures are not checked and native plugins are refused.';

export class CreatePluginMarketplaceDto {
  @ApiProperty({ example: 'Internal catalog', maxLength: 200 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiProperty({ example: 'https://plugins.example.com/catalog.json', maxLength: 2048 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  catalog_url!: string;

  @ApiPropertyOptional({ description: KEY_DESCRIPTION, maxLength: 4096, writeOnly: true })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4096)
  public_key?: string;

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean()
  is_active?: boolean;

  /** Not accepted on registration (refused with plugin_source_native_on_create). */
  @ApiHideProperty()
  @Allow()
  allows_native?: unknown;
}

export class UpdatePluginMarketplaceDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 2048 })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  catalog_url?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: `${KEY_DESCRIPTION} null removes the key (the source becomes unsigned). Cannot change while allows_native is true.`,
    maxLength: 4096,
    writeOnly: true,
  })
  @ValidateIf((_o, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(4096)
  public_key?: string | null;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({
    description:
      'Native (tier 2) plugins may come from this source; takes effect only on a signed source. Granting and withdrawing are audited.',
  })
  @OptionalNotNull()
  @IsBoolean()
  allows_native?: boolean;
}

export class PluginMarketplaceDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() catalog_url!: string;
  @ApiProperty() is_active!: boolean;
  @ApiProperty() allows_native!: boolean;
  @ApiProperty({ description: 'The source has a public key: signatures are verified' })
  signed!: boolean;
  @ApiProperty({ description: 'allows_native and signed: native plugins may be installed' })
  native_effective!: boolean;
  @ApiProperty({ description: 'The official source registered at first start' })
  official!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  catalog_fetched_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;

  static from(s: PluginSourceEntity): PluginMarketplaceDto {
    const signed = s.publicKey !== null;
    return {
      id: s.id,
      name: s.name,
      catalog_url: s.catalogUrl,
      is_active: s.isActive,
      allows_native: s.allowsNative,
      signed,
      native_effective: signed && s.allowsNative,
      official: s.official,
      catalog_fetched_at: s.catalogFetchedAt?.toISOString() ?? null,
      created_at: s.createdAt.toISOString(),
      updated_at: s.updatedAt.toISOString(),
    };
  }
}
