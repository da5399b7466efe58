import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PURPOSES, type Purpose } from '../../../app/domain/purposes';
import type { DeviceFilter } from '../devices.repository';
import { PagingQueryDto } from '../../../app/http/paging.dto';

export class DeviceQueryDto extends PagingQueryDto {
  @ApiPropertyOptional({ description: 'case-insensitive part of the serial' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  serial?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(320)
  owner?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(32)
  platform?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  agent_version?: string;

  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean()
  blocked?: boolean;

  @ApiPropertyOptional({ enum: PURPOSES, description: 'devices with this purpose assigned' })
  @IsOptional()
  @IsIn(PURPOSES)
  purpose?: Purpose;
}

export function deviceFilterOf(query: DeviceQueryDto): DeviceFilter {
  return {
    serial: query.serial,
    owner: query.owner,
    platform: query.platform,
    agentVersion: query.agent_version,
    blocked: query.blocked,
    purpose: query.purpose,
  };
}
