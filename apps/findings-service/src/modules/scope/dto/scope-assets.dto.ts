import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OptionalNotNull, QueryInt } from '@platform/http';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { hostNameForDisplay } from '../perimeter/host-name';
import type { AssetReport, ResolutionReport } from '../scope-assets.service';
import type { Page, ScopeAssetView } from '../scope-views';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export class ScopeAssetInputDto {
  @ApiProperty({ description: 'host name (Unicode or punycode)', maxLength: 253 })
  @IsString()
  @MaxLength(1000)
  domain!: string;

  @ApiProperty({ description: 'IPv4 or IPv6 address' })
  @IsString()
  @MaxLength(100)
  ip!: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'when it was seen (default now; a time ahead of the service clock counts as now)',
  })
  @OptionalNotNull()
  @IsISO8601({ strict: true })
  seen_at?: string;
}

/** POST /projects/{id}/scope/assets */
export class ReportScopeAssetsDto {
  @ApiProperty({ type: [ScopeAssetInputDto], maxItems: 5000 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5_000)
  // An item must be an object: ValidateNested alone walks into a nested array (`[[...]]`).
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ScopeAssetInputDto)
  assets!: ScopeAssetInputDto[];
}

export class ScopeAssetReportDto {
  @ApiProperty({ description: 'pairs in the request' }) received!: number;
  @ApiProperty({ description: 'pairs seen for the first time' }) added!: number;
  @ApiProperty({ description: 'known pairs whose last-seen time was updated' }) updated!: number;

  static from(r: AssetReport): ScopeAssetReportDto {
    return { received: r.received, added: r.added, updated: r.updated };
  }
}

export class DomainResolutionDto {
  @ApiProperty({ maxLength: 253 })
  @IsString()
  @MaxLength(1000)
  domain!: string;

  @ApiProperty({ description: 'false: it stopped resolving; true: it resolves (again)' })
  @IsBoolean()
  resolving!: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'when it was observed (default now)' })
  @OptionalNotNull()
  @IsISO8601({ strict: true })
  observed_at?: string;
}

/** POST /projects/{id}/scope/resolution-report */
export class ResolutionReportDto {
  @ApiProperty({ type: [DomainResolutionDto], maxItems: 5000 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5_000)
  // An item must be an object: ValidateNested alone walks into a nested array (`[[...]]`).
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => DomainResolutionDto)
  domains!: DomainResolutionDto[];
}

export class ResolutionReportResultDto {
  @ApiProperty({ description: 'domains whose state changed (recorded with its time)' })
  changed!: number;
  @ApiProperty({ description: 'domains already in the reported state' }) unchanged!: number;
  @ApiProperty({
    type: [String],
    description: 'domains with no inventory pair (nothing recorded)',
  })
  unknown!: string[];

  static from(r: ResolutionReport): ResolutionReportResultDto {
    return { changed: r.changed, unchanged: r.unchanged, unknown: r.unknown };
  }
}

export class ScopeAssetDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'ASCII (punycode)' }) domain!: string;
  @ApiProperty() domain_unicode!: string;
  @ApiProperty() ip!: string;
  @ApiProperty({ format: 'date-time' }) first_seen_at!: string;
  @ApiProperty({ format: 'date-time' }) last_seen_at!: string;
  @ApiProperty() resolving!: boolean;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' })
  stopped_resolving_at!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' })
  resumed_resolving_at!: string | null;

  static from(a: ScopeAssetView): ScopeAssetDto {
    return {
      id: a.id,
      domain: a.domain,
      domain_unicode: hostNameForDisplay(a.domain),
      ip: a.ip,
      first_seen_at: a.firstSeenAt.toISOString(),
      last_seen_at: a.lastSeenAt.toISOString(),
      resolving: a.resolving,
      stopped_resolving_at: iso(a.stoppedResolvingAt),
      resumed_resolving_at: iso(a.resumedResolvingAt),
    };
  }
}

export class ScopeAssetPageDto {
  @ApiProperty({ type: [ScopeAssetDto] }) items!: ScopeAssetDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;

  static from(page: Page<ScopeAssetView>): ScopeAssetPageDto {
    return { items: page.items.map((a) => ScopeAssetDto.from(a)), next_cursor: page.nextCursor };
  }
}

/** GET /projects/{id}/scope/assets (last seen first) */
export class ListScopeAssetsQueryDto {
  @ApiPropertyOptional({ description: 'only this domain' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  domain?: string;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same filter)' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @QueryInt({ min: 1, max: 500, default: 100 })
  limit?: number;
}
