import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInt } from '@platform/http';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_QUERY_LENGTH } from '../query';
import { FINDING_SORT_KEYS, FindingSortKey, SORT_ORDERS, SortOrder } from '../list/finding-sort';
import { FindingFiltersDto } from './finding-filters.dto';

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

export class ListFindingsQueryDto extends FindingFiltersDto {
  @ApiPropertyOptional({
    description: 'Query language (docs/findings-service/query-language.md), ANDed with the filters',
    example: 'severity:critical|high host:*prod*',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH * 5)
  q?: string;

  @ApiPropertyOptional({ enum: FINDING_SORT_KEYS, default: 'created_at' })
  @IsOptional()
  @IsIn(FINDING_SORT_KEYS)
  sort?: FindingSortKey;

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'desc' })
  @IsOptional()
  @IsIn(SORT_ORDERS)
  order?: SortOrder;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same sort and order)' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;

  @QueryInt({ min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  limit?: number;
}
