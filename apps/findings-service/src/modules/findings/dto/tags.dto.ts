import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { BulkSelectionDto } from './bulk-selection.dto';

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
export class BulkTagsDto extends BulkSelectionDto {
  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  add?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @OptionalNotNull()
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
