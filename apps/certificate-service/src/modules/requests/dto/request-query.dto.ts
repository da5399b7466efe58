import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PURPOSES, type Purpose } from '../../../common/domain/purposes';
import { PagingQueryDto } from '../../../common/http/paging.dto';
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

  @ApiPropertyOptional({ format: 'date-time', description: 'created at or after' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  since?: Date;

  @ApiPropertyOptional({ format: 'date-time', description: 'created before' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
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
