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
import { FINDING_STATUSES, FindingStatus } from '../finding-status';
import type { TriagePatch } from '../triage/triage-rules';

/** PATCH /findings/{id}: absent fields stay; `null` clears assignee_id or comment. */
export class UpdateFindingDto {
  @ApiPropertyOptional({ enum: FINDING_STATUSES })
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
    nullable: true,
    type: String,
    description: 'Triage comment / justification; null or "" clears',
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
  };
}
