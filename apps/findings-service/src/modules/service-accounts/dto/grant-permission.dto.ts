import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsIn, IsUUID } from 'class-validator';
import { OptionalNotNull } from '@platform/http';
import {
  PERMISSION_LEVELS,
  PERMISSION_NAMES,
  PermissionLevel,
  PermissionName,
} from '../../../app/access/permissions';

export class GrantPermissionDto {
  @ApiProperty({ enum: PERMISSION_NAMES })
  @IsIn(PERMISSION_NAMES)
  permission!: PermissionName;

  @ApiProperty({ enum: PERMISSION_LEVELS, description: 'Must be allowed for the permission' })
  @IsIn(PERMISSION_LEVELS)
  level!: PermissionLevel;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for level `project`' })
  @OptionalNotNull()
  @IsUUID()
  project_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Required for level `product`' })
  @OptionalNotNull()
  @IsUUID()
  product_id?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Expiry; required for a global write_findings grant',
  })
  @OptionalNotNull()
  @IsDateString({ strict: true })
  expires_at?: string;
}
