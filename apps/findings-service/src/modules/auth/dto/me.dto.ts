import { ApiProperty } from '@nestjs/swagger';
import { UserDto } from '../../users/dto/user.dto';
import {
  PERMISSION_LEVELS,
  PERMISSION_NAMES,
  PermissionLevel,
  PermissionName,
} from '../../../app/access/permissions';

export class EffectivePermissionDto {
  @ApiProperty({ enum: PERMISSION_NAMES }) permission!: PermissionName;
  @ApiProperty({ enum: PERMISSION_LEVELS }) level!: PermissionLevel;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) project_id!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) product_id!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
}

export class MeDto {
  @ApiProperty({ type: UserDto }) user!: UserDto;
  @ApiProperty({ type: [String], example: ['user', 'admin'] }) roles!: string[];
  @ApiProperty({ type: [EffectivePermissionDto] }) permissions!: EffectivePermissionDto[];
}
