import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull, QueryInt } from '@platform/http';
import { FINDING_STATUSES } from '../findings/finding-status';
import { FindingFiltersDto } from '../findings/dto/finding-filters.dto';
import { ListFindingsQueryDto, MAX_PAGE_SIZE } from '../findings/dto/list-findings.query.dto';
import { BulkStatusResultDto } from '../findings/dto/bulk-status.dto';
import { ROLLUP_AXES, type RollupAxis } from '../findings/groups/group-axis';
import { SEVERITIES } from '../findings/list/finding-filters';
import { SORT_ORDERS, type SortOrder } from '../findings/list/finding-sort';
import { MAX_QUERY_LENGTH } from '../findings/query';
import { BulkTicketResultDto } from '../tickets/dto/ticket.dto';
import { ROLLUP_SORT_KEYS, type RollupSortKey } from './inventory-rollup.sql';
import type { RollupRow } from './inventory-rollup.repository';

export const DEFAULT_ROLLUP_PAGE_SIZE = 50;
/** Row keys are unbounded report text (a package or host name): long ones stay addressable. */
const KEY_MAX = 32_768;

/** GET /findings/inventory-rollup: the axis, the list's filters and `q`, sort and keyset page. */
export class InventoryRollupQueryDto extends FindingFiltersDto {
  @ApiProperty({ enum: ROLLUP_AXES, description: 'package = component name (every version)' })
  @IsIn(ROLLUP_AXES)
  axis!: RollupAxis;

  @ApiPropertyOptional({ description: 'Query language, ANDed with the filters' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH * 5)
  q?: string;

  @ApiPropertyOptional({
    enum: ROLLUP_SORT_KEYS,
    default: 'total',
    description: 'total, key, or a severity count; ties break on the key (ascending)',
  })
  @IsOptional()
  @IsIn(ROLLUP_SORT_KEYS)
  sort?: RollupSortKey;

  @ApiPropertyOptional({ enum: SORT_ORDERS, description: 'default desc (asc when sort=key)' })
  @IsOptional()
  @IsIn(SORT_ORDERS)
  order?: SortOrder;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (same axis, sort, order)' })
  @IsOptional()
  @IsString()
  @MaxLength(KEY_MAX * 6)
  cursor?: string;

  @QueryInt({ min: 1, max: MAX_PAGE_SIZE, default: DEFAULT_ROLLUP_PAGE_SIZE })
  limit?: number;
}

/** GET /findings/inventory-rollup/members: the row (axis, key), then the list's parameters. */
export class RollupMembersQueryDto extends ListFindingsQueryDto {
  @ApiProperty({ enum: ROLLUP_AXES })
  @IsIn(ROLLUP_AXES)
  axis!: RollupAxis;

  @ApiProperty({ description: 'The row key (exact)', maxLength: KEY_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(KEY_MAX)
  key!: string;
}

export const ROLLUP_ACTIONS = ['risk_accepted', 'wont_fix', 'ticket'] as const;
export type RollupActionName = (typeof ROLLUP_ACTIONS)[number];

/** POST /findings/inventory-rollup/bulk-status: one row (axis, key, filters, q) and the action. */
export class RollupBulkStatusDto {
  @ApiProperty({ enum: ROLLUP_AXES })
  @IsIn(ROLLUP_AXES)
  axis!: RollupAxis;

  @ApiProperty({ maxLength: KEY_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(KEY_MAX)
  key!: string;

  @ApiPropertyOptional({ description: 'The roll-up’s query (the row as the caller sees it)' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(MAX_QUERY_LENGTH * 5)
  q?: string;

  @ApiPropertyOptional({ type: FindingFiltersDto, description: 'The roll-up’s filters' })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => FindingFiltersDto)
  filters?: FindingFiltersDto;

  @ApiProperty({
    enum: ROLLUP_ACTIONS,
    description:
      'risk_accepted (needs risk_accepted_until and a justification), wont_fix (needs a justification), or ticket: one task for the row in the project’s tracker',
  })
  @IsIn(ROLLUP_ACTIONS)
  action!: RollupActionName;

  @ApiPropertyOptional({ format: 'date-time', description: 'risk_accepted: the review date' })
  @OptionalNotNull()
  @IsISO8601()
  risk_accepted_until?: string;

  @ApiPropertyOptional({ maxLength: 4000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  justification?: string;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'ticket: the task title (default "<axis>: <key>")',
  })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  title?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'ticket: the provider’s target' })
  @OptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  target?: string;
}

class SeverityCountsDto {
  @ApiProperty() CRITICAL!: number;
  @ApiProperty() HIGH!: number;
  @ApiProperty() MEDIUM!: number;
  @ApiProperty() LOW!: number;
  @ApiProperty() INFO!: number;
}

class StatusCountsDto {
  @ApiProperty() new!: number;
  @ApiProperty() renewed!: number;
  @ApiProperty() needs_review!: number;
  @ApiProperty() in_progress!: number;
  @ApiProperty() confirmed!: number;
  @ApiProperty() waiting!: number;
  @ApiProperty() risk_accepted!: number;
  @ApiProperty() wont_fix!: number;
  @ApiProperty() false_positive!: number;
  @ApiProperty() fixed!: number;
}

export class RollupRowDto {
  @ApiProperty({ description: 'The package (component name), host or CVE' }) key!: string;
  @ApiProperty() total!: number;
  @ApiProperty({ type: SeverityCountsDto }) by_severity!: SeverityCountsDto;
  @ApiProperty({ type: StatusCountsDto }) by_status!: StatusCountsDto;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The project when all the row’s findings lie in one; null when it spans several',
  })
  project_id!: string | null;

  static from(r: RollupRow): RollupRowDto {
    const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, r.bySeverity[s]]));
    const byStatus = Object.fromEntries(FINDING_STATUSES.map((s) => [s, r.byStatus[s]]));
    return {
      key: r.key,
      total: r.total,
      by_severity: bySeverity as unknown as SeverityCountsDto,
      by_status: byStatus as unknown as StatusCountsDto,
      project_id: r.projectId,
    };
  }
}

export class RollupPageDto {
  @ApiProperty({ type: [RollupRowDto] }) items!: RollupRowDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class RollupBulkResultDto {
  @ApiProperty({ enum: ROLLUP_ACTIONS }) action!: RollupActionName;
  @ApiPropertyOptional({
    type: BulkStatusResultDto,
    nullable: true,
    description: 'risk_accepted / wont_fix: as POST /findings/bulk-status',
  })
  status_change!: BulkStatusResultDto | null;
  @ApiPropertyOptional({
    type: BulkTicketResultDto,
    nullable: true,
    description: 'ticket: as POST /findings/ticket/bulk',
  })
  ticket!: BulkTicketResultDto | null;
}
