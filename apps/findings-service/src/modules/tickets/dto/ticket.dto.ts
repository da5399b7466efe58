import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateNested,
  IsNotEmptyObject,
} from 'class-validator';
import { Type } from 'class-transformer';
import { TICKET_ORIGINS, TICKET_STATUSES } from '../tickets.entities';

export class TicketDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'the installed provider' })
  provider_plugin_id!: string;
  @ApiProperty({ description: 'the tracker’s id of the task' }) task_id!: string;
  @ApiProperty({ description: 'the human key, e.g. SEC-42' }) task_key!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: TICKET_STATUSES }) status!: string;
  @ApiProperty({ description: 'the tracker’s own name of the state' }) raw_status!: string;
  @ApiProperty({ enum: TICKET_ORIGINS }) origin!: string;
  @ApiProperty({ description: 'findings linked to the task' }) finding_count!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  status_synced_at!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'why the service could not move the task in the tracker the last time it tried (provider error kind and words); null once a move succeeds',
  })
  sync_error!: string | null;
}

export class TicketTargetDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class CreateTicketDto {
  @ApiPropertyOptional({
    description:
      'the provider’s target (project, repository, list); default: the project’s default_target',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  target?: string;

  @ApiPropertyOptional({ description: 'a first comment on the task', maxLength: 10_000 })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  comment?: string;
}

export class LinkTicketDto {
  @ApiPropertyOptional({
    description: 'the tracker’s id or key of the task; required unless by_label',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  task_id?: string;

  @ApiPropertyOptional({
    default: false,
    description: 'find the task by the finding’s label (a task made from the creation form)',
  })
  @IsOptional()
  @IsBoolean()
  by_label?: boolean;

  @ApiPropertyOptional({ default: false, description: 'replace the finding’s current ticket' })
  @IsOptional()
  @IsBoolean()
  replace?: boolean;
}

export class RollupGroupDto {
  @ApiProperty() @IsString() @MaxLength(64) axis!: string;
  @ApiProperty() @IsString() @MaxLength(1000) key!: string;
}

export class BulkTicketDto {
  @ApiPropertyOptional({ type: [String], minItems: 1, maxItems: 500 })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  finding_ids?: string[];

  @ApiPropertyOptional({ type: RollupGroupDto, description: 'a roll-up row instead of ids' })
  @IsOptional()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => RollupGroupDto)
  group?: RollupGroupDto;

  @ApiProperty({ maxLength: 255 })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  title!: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  target?: string;

  @ApiPropertyOptional({
    default: true,
    description: 'skip findings that have a ticket (else 409)',
  })
  @IsOptional()
  @IsBoolean()
  skip_ticketed?: boolean;
}

export class BulkTicketResultDto {
  @ApiProperty({ type: TicketDto }) ticket!: TicketDto;
  @ApiProperty({ type: [String], description: 'findings linked to the task' }) linked!: string[];
  @ApiProperty({ type: [String], description: 'findings skipped (they have a ticket)' })
  skipped!: string[];
}

export class TicketUrlDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 500 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  finding_ids!: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  target?: string;
}

export class TicketUrlResultDto {
  @ApiProperty({ description: 'the tracker’s creation form, prefilled' }) url!: string;
  @ApiProperty({ description: 'the label the form carries (the task is found by it later)' })
  label!: string;
}
