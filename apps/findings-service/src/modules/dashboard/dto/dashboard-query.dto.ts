import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryInt } from '@platform/http';
import { IsIn, IsOptional } from 'class-validator';
import {
  CommaListChecker,
  isUuidValue,
  ScopeFiltersDto,
} from '../../../app/http/comma-list-filters';
import type { FigureFilter } from '../dashboard.repository';

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
export const DEFAULT_WINDOW_DAYS = 30;

/** Filters and period of the dashboard figures. */
export class DashboardQueryDto extends ScopeFiltersDto {
  @QueryInt({
    min: 1,
    max: 365,
    default: DEFAULT_WINDOW_DAYS,
    description: 'Period of the event figures (fixes, violations opened): the last N days',
  })
  days?: number;
}

export const TREND_GROUPS = ['none', 'severity'] as const;
export type TrendGroup = (typeof TREND_GROUPS)[number];

export class SlaTrendQueryDto extends DashboardQueryDto {
  @ApiPropertyOptional({ enum: TREND_GROUPS, default: 'none' })
  @IsOptional()
  @IsIn(TREND_GROUPS)
  group_by?: TrendGroup;
}

/** Period of the dashboard tool's routes (no filters: the tool filters the rows itself). */
export class DashboardToolQueryDto {
  @QueryInt({
    min: 1,
    max: 365,
    default: DEFAULT_WINDOW_DAYS,
    description: 'Period of the event figures: the last N days',
  })
  days?: number;
}

const isSeverity = (v: string): v is string => SEVERITIES.includes(v);

/** Splits and checks the comma lists (400 `validation_failed` naming the field). */
export function toFigureFilter(dto: DashboardQueryDto): FigureFilter {
  const lists = new CommaListChecker();
  const filter: FigureFilter = {
    projectIds: lists.check('project_id', dto.project_id, isUuidValue, 'not a UUID'),
    productIds: lists.check('product_id', dto.product_id, isUuidValue, 'not a UUID'),
    severities: lists.check(
      'severity',
      dto.severity?.toUpperCase(),
      isSeverity,
      `expected ${SEVERITIES.join('|')}`,
    ),
  };
  lists.done();
  return filter;
}
