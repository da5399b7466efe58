import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { MAX_QUERY_LENGTH } from '../query';
import { FindingFiltersDto } from './finding-filters.dto';

/** Selection of a bulk operation: `finding_ids`, or `q` and/or `filters` (the list's names). */
export class BulkSelectionDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: 10000 })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10_000)
  @IsUUID('all', { each: true })
  finding_ids?: string[];

  @ApiPropertyOptional({ description: 'Query language selection' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH * 5)
  q?: string;

  @ApiPropertyOptional({ type: FindingFiltersDto })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => FindingFiltersDto)
  filters?: FindingFiltersDto;
}
