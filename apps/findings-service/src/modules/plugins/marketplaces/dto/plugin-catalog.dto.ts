import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CatalogVersionDto {
  @ApiProperty({ example: '1.0.8' }) version!: string;
  @ApiProperty({ example: '>=0.33' }) min_service_version!: string;
  @ApiProperty({ enum: ['wasm', 'native'] }) runtime!: string;
  @ApiProperty({ type: [String] }) capabilities!: string[];
  @ApiProperty({ description: 'sha256 of the artifact (hex)' }) artifact_sha256!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Publisher's Ed25519 signature over the manifest (base64)",
  })
  signature!: string | null;
  @ApiPropertyOptional({ format: 'date-time' }) published_at?: string;
  @ApiProperty({ description: 'min_service_version is satisfied by this service' })
  compatible!: boolean;
  @ApiProperty({ description: 'The artifact digest is on the revocation list' })
  revoked!: boolean;
}

export class CatalogEntryDto {
  @ApiProperty({ example: 'fleet-source' }) id!: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional() description?: string;
  @ApiProperty({ description: 'Newest version' }) latest_version!: string;
  @ApiProperty({ description: 'min_service_version of the newest version' })
  min_service_version!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Signature of the newest version' })
  signature!: string | null;
  @ApiProperty({ type: [String] }) capabilities!: string[];
  @ApiProperty({ enum: ['wasm', 'native'] }) runtime!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Installed version, if any' })
  installed_version!: string | null;
  @ApiProperty({ type: [CatalogVersionDto], description: 'Version history, newest first' })
  available_versions!: CatalogVersionDto[];
}

export class PluginCatalogDto {
  @ApiProperty({ format: 'uuid' }) marketplace_id!: string;
  @ApiProperty({ description: 'The catalog signature was verified with the source key' })
  signed!: boolean;
  @ApiProperty({ example: '0.33' }) service_version!: string;
  @ApiProperty({ format: 'date-time' }) fetched_at!: string;
  @ApiProperty({ type: [String] }) revoked_digests!: string[];
  @ApiProperty({ type: [CatalogEntryDto] }) plugins!: CatalogEntryDto[];
}
