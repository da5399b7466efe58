import { ApiProperty } from '@nestjs/swagger';
import { UserEntity } from '../user.entity';

export class UserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'alice@example.com' }) email!: string;
  @ApiProperty({ example: 'alice' }) display_name!: string;
  @ApiProperty() is_admin!: boolean;
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ description: 'Whether the user can sign in with a local password' })
  has_password!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(user: UserEntity): UserDto {
    return {
      id: user.id,
      email: user.email,
      display_name: user.displayName,
      is_admin: user.isAdmin,
      is_active: user.isActive,
      has_password: user.passwordHash !== null,
      created_at: user.createdAt.toISOString(),
    };
  }
}
