import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import { FINDING_STATUSES, FindingStatus, SETTABLE_STATUSES } from '../finding-status';
import type { TriagePatch } from '../triage/triage-rules';

/** PATCH /findings/{id}: absent fields stay; `null` clears assignee_id or comment. */
export class UpdateFindingDto {
  @ApiPropertyOptional({
    enum: SETTABLE_STATUSES,
    description: 'Any state but renewed (only a report sets it: 400 status_not_settable)',
  })
  @OptionalNotNull()
  @IsIn(FINDING_STATUSES)
  status?: FindingStatus;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Required with status risk_accepted; in the future',
  })
  @OptionalNotNull()
  @IsISO8601()
  risk_accepted_until?: string;

  @ApiPropertyOptional({ description: 'Required with status waiting' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(2000)
  waiting_reason?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Required with status waiting; at most 30 days ahead',
  })
  @OptionalNotNull()
  @IsISO8601()
  waiting_until?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'Active user with access to the project; null unassigns',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsUUID()
  assignee_id?: string | null;

  @ApiPropertyOptional({
    maxLength: 4000,
    description:
      'Why: required (non-blank) when the status becomes risk_accepted, false_positive or wont_fix and when risk_accepted_until changes (400 justification_required); stored in the status entry of the action log',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(4000)
  justification?: string;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    deprecated: true,
    description:
      'Deprecated single triage note; null or "" clears. Discussion: the comments thread; reasons: justification',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @MaxLength(4000)
  comment?: string | null;
}

export function toTriagePatch(dto: UpdateFindingDto): TriagePatch {
  return {
    status: dto.status,
    riskAcceptedUntil:
      dto.risk_accepted_until === undefined ? undefined : new Date(dto.risk_accepted_until),
    waitingReason: dto.waiting_reason,
    waitingUntil: dto.waiting_until === undefined ? undefined : new Date(dto.waiting_until),
    assigneeId: dto.assignee_id,
    comment: dto.comment,
    justification: dto.justification,
  };
}
