import { ApiProperty } from '@nestjs/swagger';
import { HUMAN_ROLES, primaryRole, type HumanRole } from '../../../app/access/roles';
import type { UserRecord } from '../users.repository';

export class UserDto {
  @ApiProperty() email!: string;
  @ApiProperty({ description: 'has a local password (false for single sign-on users)' })
  local!: boolean;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: HUMAN_ROLES, nullable: true, description: 'strongest role held' })
  role!: HumanRole | null;
  @ApiProperty({ enum: HUMAN_ROLES, isArray: true }) roles!: HumanRole[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_login_at!: string | null;

  static from(user: UserRecord): UserDto {
    return {
      email: user.email,
      local: user.passwordHash !== null,
      enabled: user.enabled,
      role: primaryRole(user.roles),
      roles: user.roles,
      created_at: user.createdAt.toISOString(),
      last_login_at: user.lastLoginAt?.toISOString() ?? null,
    };
  }
}

export class UserListDto {
  @ApiProperty({ type: [UserDto] }) items!: UserDto[];
}
