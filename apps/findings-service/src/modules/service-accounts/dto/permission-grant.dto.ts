import { ApiProperty } from '@nestjs/swagger';
import {
  PERMISSION_LEVELS,
  PERMISSION_NAMES,
  PermissionLevel,
  PermissionName,
} from '../../../app/access/permissions';
import { ServiceAccountPermissionEntity } from '../service-account-permission.entity';

export class PermissionGrantDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: PERMISSION_NAMES }) permission!: PermissionName;
  @ApiProperty({ enum: PERMISSION_LEVELS }) level!: PermissionLevel;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) project_id!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) product_id!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(g: ServiceAccountPermissionEntity): PermissionGrantDto {
    return {
      id: g.id,
      permission: g.permission,
      level: g.level,
      project_id: g.projectId,
      product_id: g.productId,
      expires_at: g.expiresAt?.toISOString() ?? null,
      created_at: g.createdAt.toISOString(),
    };
  }
}
