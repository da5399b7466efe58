import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { QueryInt } from '@platform/http';
import { MAX_QUERY_LENGTH } from '../query';
import { FINDING_GROUP_KEYS, type FindingGroupKey } from '../list/finding-groups.sql';
import type { FindingGroupPage } from '../findings-overview.service';
import { FindingFiltersDto } from './finding-filters.dto';

/** The list's selection without paging: every filter and `q`. */
export class FindingSelectionQueryDto extends FindingFiltersDto {
  @ApiPropertyOptional({
    description: 'Query language (docs/findings-service/query-language.md), ANDed with the filters',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH * 5)
  q?: string;
}

export class FindingGroupsQueryDto extends FindingSelectionQueryDto {
  @ApiProperty({ enum: FINDING_GROUP_KEYS, description: 'Group by rule id or by file path' })
  @IsIn(FINDING_GROUP_KEYS)
  by!: FindingGroupKey;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same by)' })
  @IsOptional()
  @IsString()
  @MaxLength(12_000)
  cursor?: string;

  @QueryInt({ min: 1, max: 200, default: 50 })
  limit?: number;
}

export class SeverityCountsDto {
  @ApiProperty() CRITICAL!: number;
  @ApiProperty() HIGH!: number;
  @ApiProperty() MEDIUM!: number;
  @ApiProperty() LOW!: number;
  @ApiProperty() INFO!: number;
}

export class FindingGroupDto {
  @ApiProperty({ description: 'The rule id (by=rule) or the file path (by=file)' }) key!: string;
  @ApiProperty({ description: "The rule's most common rule_title, or the path" }) title!: string;
  @ApiProperty() count!: number;
  @ApiProperty({ type: SeverityCountsDto }) by_severity!: SeverityCountsDto;
}

export class FindingGroupPageDto {
  @ApiProperty({ enum: FINDING_GROUP_KEYS }) by!: string;
  @ApiProperty({ type: [FindingGroupDto], description: 'count descending, then key' })
  items!: FindingGroupDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor!: string | null;

  static from(page: FindingGroupPage): FindingGroupPageDto {
    return {
      by: page.by,
      items: page.items.map((g) => ({
        key: g.key,
        title: g.title,
        count: g.count,
        by_severity: g.bySeverity,
      })),
      next_cursor: page.nextCursor,
    };
  }
}

export class FindingCountDto {
  @ApiProperty({ example: 1768 }) count!: number;
  @ApiProperty({
    description: 'true up to 10 000 findings; above, count is an estimate (never below 10 001)',
  })
  exact!: boolean;
}
