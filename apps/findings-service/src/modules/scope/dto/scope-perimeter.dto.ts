import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString } from 'class-validator';
import type { FilterResult } from '../perimeter/perimeter';
import { ENTRY_KINDS } from '../perimeter/scope-entry-value';
import { TARGET_REASONS } from '../perimeter/scope-target';
import type { PerimeterExport } from '../scope-entries.service';
import { displayValue } from './scope-entry.dto';

export const EXPORT_FORMATS = ['text', 'json'] as const;
export const EXPORT_LISTS = ['targets', 'excludes'] as const;

/** GET /projects/{id}/scope/export */
export class ExportScopeQueryDto {
  @ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    description:
      '`text`: text/plain, one target per line; `json`: the data envelope. Without it the Accept header decides (text/plain preferred over application/json gives text), else JSON.',
  })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format?: (typeof EXPORT_FORMATS)[number];

  @ApiPropertyOptional({
    enum: EXPORT_LISTS,
    default: 'targets',
    description:
      'text format only: `targets` (what to scan) or `excludes` (names inside an included wildcard that must be skipped)',
  })
  @IsOptional()
  @IsIn(EXPORT_LISTS)
  list?: (typeof EXPORT_LISTS)[number];
}

export class ScopeExportEntryDto {
  @ApiProperty({ enum: ENTRY_KINDS }) kind!: string;
  @ApiProperty() value!: string;
  @ApiProperty() value_unicode!: string;
}

/** The perimeter for a scanner (JSON form of the export). */
export class ScopeExportDto {
  @ApiProperty({ format: 'uuid' }) project_id!: string;
  @ApiProperty({ format: 'date-time' }) generated_at!: string;
  @ApiProperty({
    type: [String],
    description:
      'what to scan: address blocks with the excludes taken out (minimal CIDR blocks, single addresses bare; IPv4, then IPv6), then names and wildcards no exclude removes (ASCII)',
  })
  targets!: string[];
  @ApiProperty({
    type: [String],
    description:
      'names and wildcards to skip that a positive list cannot express: excludes inside an included wildcard',
  })
  exclude_targets!: string[];
  @ApiProperty({ type: [ScopeExportEntryDto] }) include!: ScopeExportEntryDto[];
  @ApiProperty({ type: [ScopeExportEntryDto] }) exclude!: ScopeExportEntryDto[];

  static from(projectId: string, e: PerimeterExport): ScopeExportDto {
    const entry = (mode: string) =>
      e.entries
        .filter((x) => x.mode === mode)
        .map((x) => ({
          kind: x.kind,
          value: x.value,
          value_unicode: displayValue(x.kind, x.value),
        }));
    return {
      project_id: projectId,
      generated_at: e.generatedAt.toISOString(),
      targets: e.targets,
      exclude_targets: e.excludes,
      include: entry('include'),
      exclude: entry('exclude'),
    };
  }
}

/** POST /projects/{id}/scope/filter (JSON form; text/plain takes one target per line). */
export class FilterScopeTargetsDto {
  @ApiProperty({
    type: [String],
    maxItems: 10000,
    description:
      'IP addresses (v4, v6, `[v6]:port`), host names (`name:port`), URLs; at most 10 000 in JSON — send text/plain, one per line, for up to 100 000',
  })
  @IsArray()
  @ArrayMaxSize(10_000)
  @IsString({ each: true })
  targets!: string[];
}

export class InvalidTargetDto {
  @ApiProperty() target!: string;
  @ApiProperty({ enum: TARGET_REASONS }) reason!: string;
}

export class ScopeFilterCountsDto {
  @ApiProperty() inside!: number;
  @ApiProperty() outside!: number;
  @ApiProperty() invalid!: number;
}

export class ScopeFilterResultDto {
  @ApiProperty({ type: [String], description: 'targets inside the perimeter, in input order' })
  inside!: string[];
  @ApiProperty({ type: [String] }) outside!: string[];
  @ApiProperty({ type: [InvalidTargetDto] }) invalid!: InvalidTargetDto[];
  @ApiProperty({ type: ScopeFilterCountsDto }) counts!: ScopeFilterCountsDto;

  static from(r: FilterResult): ScopeFilterResultDto {
    return {
      inside: r.inside,
      outside: r.outside,
      invalid: r.invalid,
      counts: { inside: r.inside.length, outside: r.outside.length, invalid: r.invalid.length },
    };
  }
}
