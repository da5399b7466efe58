import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsISO8601, IsString, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { FINDING_STATUSES, SETTABLE_STATUSES, type FindingStatus } from '../finding-status';
import { GroupSelectionDto } from '../groups/group-axes.dto';
import { BulkSelectionDto } from './bulk-selection.dto';

/**
 * POST /findings/bulk-status: a selection (`finding_ids`, or `q` and/or `filters`) and the
 * target state. `waiting` is refused (400 `bulk_waiting_refused`): it needs a reason and a date
 * per finding.
 */
export class BulkStatusDto extends BulkSelectionDto {
  @ApiPropertyOptional({
    type: GroupSelectionDto,
    description:
      "A finding's group (GET /findings/{id}/group-axes) instead of finding_ids/q/filters: every writable member changes, each with its own entry",
  })
  @OptionalNotNull()
  @ValidateNested()
  @Type(() => GroupSelectionDto)
  group?: GroupSelectionDto;

  @ApiProperty({
    enum: SETTABLE_STATUSES,
    description:
      'Target state; waiting is refused in a bulk change (400 bulk_waiting_refused), renewed is never set by hand (400 status_not_settable)',
  })
  @IsIn(FINDING_STATUSES)
  status!: FindingStatus;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Required with status risk_accepted (the review date); in the future',
  })
  @OptionalNotNull()
  @IsISO8601()
  risk_accepted_until?: string;

  @ApiPropertyOptional({
    maxLength: 4000,
    description:
      "Why: required (non-blank) for risk_accepted, false_positive and wont_fix (400 justification_required); written into every changed finding's entry",
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  justification?: string;
}

export class BulkStatusResultDto {
  @ApiProperty({ description: 'Writable findings in the selection' }) matched!: number;
  @ApiProperty({
    description:
      'Findings whose status (or review date) changed: one action-log entry and one clock update each',
  })
  changed!: number;
  @ApiProperty({ description: 'Open deadline violations closed (closing states only)' })
  violations_closed!: number;
}
