import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, MaxLength } from 'class-validator';
import type { MemberRow } from '../project-members.repository';
import { PROJECT_ROLES, ProjectRole } from '../project-roles';

export class PutMemberDto {
  @ApiProperty({ enum: PROJECT_ROLES })
  @IsIn(PROJECT_ROLES)
  role!: ProjectRole;
}

/** POST /projects/{id}/members: a member by e-mail (any letter case). */
export class AddMemberByEmailDto {
  @ApiProperty({ example: 'alice@example.com' })
  @IsEmail()
  @MaxLength(320)
  email!: string;

  @ApiProperty({ enum: PROJECT_ROLES })
  @IsIn(PROJECT_ROLES)
  role!: ProjectRole;
}

export class MemberDto {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty({ enum: PROJECT_ROLES }) role!: ProjectRole;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(row: MemberRow): MemberDto {
    return {
      user_id: row.userId,
      email: row.email,
      display_name: row.displayName,
      role: row.role,
      created_at: row.createdAt.toISOString(),
    };
  }
}
