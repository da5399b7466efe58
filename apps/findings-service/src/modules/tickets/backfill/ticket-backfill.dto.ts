import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional } from 'class-validator';
import { FINDING_STATUSES } from '../../findings/finding-status';
import { SEVERITIES } from '../../findings/list/finding-filters';
import { TICKET_BACKFILL_MODES } from './ticket-backfill.job';

export class StartTicketBackfillDto {
  @ApiPropertyOptional({
    enum: TICKET_BACKFILL_MODES,
    default: 'link_only',
    description:
      'link_only: link the tasks found by each finding’s label; create: also create a task where none is found',
  })
  @IsOptional()
  @IsIn(TICKET_BACKFILL_MODES)
  mode?: (typeof TICKET_BACKFILL_MODES)[number];

  @ApiPropertyOptional({ enum: SEVERITIES, description: 'only findings at or above it' })
  @IsOptional()
  @IsIn(SEVERITIES)
  min_severity?: (typeof SEVERITIES)[number];

  @ApiPropertyOptional({
    enum: FINDING_STATUSES,
    isArray: true,
    description: 'finding statuses to walk; default: the open group',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(FINDING_STATUSES.length)
  @IsIn(FINDING_STATUSES, { each: true })
  statuses?: string[];
}

export class TicketBackfillStartedDto {
  @ApiProperty({ description: 'the backfill’s job id (tbf-<uuid>), in the ticket-backfill queue' })
  job_id!: string;
}
