import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MAX_QUERY_LENGTH } from '../query';
import { FindingFiltersDto } from './finding-filters.dto';

export class FindingTagsDto {
  @ApiProperty({ type: [String], example: ['pci', 'team-payments'], maxItems: 50 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  tags!: string[];
}

/** POST /findings/bulk-tags: `finding_ids`, or `q` and/or `filters` (same names as the list). */
export class BulkTagsDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: 10000 })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10_000)
  @IsUUID('all', { each: true })
  finding_ids?: string[];

  @ApiPropertyOptional({ description: 'Query language selection' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH * 5)
  q?: string;

  @ApiPropertyOptional({ type: FindingFiltersDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => FindingFiltersDto)
  filters?: FindingFiltersDto;

  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  add?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  remove?: string[];
}

export class BulkTagsResultDto {
  @ApiProperty({ description: 'Writable findings in the selection' }) matched!: number;
  @ApiProperty({ description: 'Findings whose tags changed (one action-log entry each)' })
  changed!: number;
  @ApiProperty({ description: 'Skipped: would exceed 50 manual tags' }) over_limit!: number;
}
