import { ApiPropertyOptional } from '@nestjs/swagger';
import { QueryDateTime } from '@platform/http';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PagingQueryDto } from '../../../app/http/paging.dto';
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

  @QueryDateTime({ description: 'inclusive lower bound' })
  since?: Date;

  @QueryDateTime({ description: 'exclusive upper bound' })
  until?: Date;
}
