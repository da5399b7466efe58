import { ApiPropertyOptional } from '@nestjs/swagger';
import { InputValidationError } from '@platform/errors';
import { OptionalNotNull, QueryInt } from '@platform/http';
import { isUUID, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { FigureFilter } from '../dashboard.repository';

const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'];
export const DEFAULT_WINDOW_DAYS = 30;

/** Filters and period of the dashboard figures. */
export class DashboardQueryDto {
  @ApiPropertyOptional({ description: 'Comma list of project ids' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  project_id?: string;

  @ApiPropertyOptional({ description: 'Comma list of product ids' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  product_id?: string;

  @ApiPropertyOptional({
    description: 'Comma list of CRITICAL, HIGH, MEDIUM, LOW, INFO (any case)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  severity?: string;

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

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = [
    ...new Set(
      value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v.length > 0),
    ),
  ];
  return items.length > 0 ? items : undefined;
}

/** Splits and checks the comma lists (400 `validation_failed` naming the field). */
export function toFigureFilter(dto: DashboardQueryDto): FigureFilter {
  const problems: { field: string; problems: string[] }[] = [];
  const check = (field: string, values: string[] | undefined, ok: (v: string) => boolean) => {
    if (!values) return undefined;
    const bad = values.filter((v) => !ok(v));
    if (values.length > 100) problems.push({ field, problems: ['at most 100 values'] });
    else if (bad.length > 0) problems.push({ field, problems: [`invalid: ${bad.join(', ')}`] });
    return values;
  };
  const uuid = (v: string): boolean => isUUID(v, 'loose');
  const filter: FigureFilter = {
    projectIds: check('project_id', list(dto.project_id), uuid),
    productIds: check('product_id', list(dto.product_id), uuid),
    severities: check('severity', list(dto.severity?.toUpperCase()), (v) => SEVERITIES.includes(v)),
  };
  if (problems.length > 0) throw new InputValidationError(problems);
  return filter;
}
