import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PagingQueryDto } from '../../../common/http/paging.dto';
import { AUDIT_ACTIONS } from '../audit-actions';

/** Audit filters plus `page`/`limit` paging. */
export class AuditQueryDto extends PagingQueryDto {
  @ApiPropertyOptional({ enum: AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(AUDIT_ACTIONS)
  action?: string;

  @ApiPropertyOptional({ description: 'email of a person, `API` or `system`' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  actor?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'inclusive lower bound' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  since?: Date;

  @ApiPropertyOptional({ format: 'date-time', description: 'exclusive upper bound' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  until?: Date;
}
