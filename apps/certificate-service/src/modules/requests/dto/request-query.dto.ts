import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryDateTime } from '@platform/http';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import { PagingQueryDto } from '../../../app/http/paging.dto';
import { REQUEST_STATUSES, type RequestStatus } from '../request-status';
import type { RequestFilter } from '../requests.repository';

export class RequestQueryDto extends PagingQueryDto {
  @ApiPropertyOptional({ enum: REQUEST_STATUSES })
  @IsOptional()
  @IsIn(REQUEST_STATUSES)
  status?: RequestStatus;

  @ApiPropertyOptional({ enum: PURPOSES })
  @IsOptional()
  @IsIn(PURPOSES)
  purpose?: Purpose;

  @ApiPropertyOptional({ description: 'exact device serial' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  serial?: string;

  @QueryDateTime({ description: 'created at or after' })
  since?: Date;

  @QueryDateTime({ description: 'created before' })
  until?: Date;
}

export function requestFilterOf(query: RequestQueryDto): RequestFilter {
  return {
    status: query.status,
    purpose: query.purpose,
    serial: query.serial,
    since: query.since,
    until: query.until,
  };
}
