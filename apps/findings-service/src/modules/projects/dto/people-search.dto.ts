import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { QueryInt } from '@platform/http';
import type { FoundPerson } from '../people-search.repository';
import { PEOPLE_SCOPES, type PeopleScope } from '../people-search.repository';
import { PROJECT_ROLES, type ProjectRole } from '../project-roles';

export class PeopleSearchQueryDto {
  @ApiProperty({ format: 'uuid', description: 'The project whose screen asks' })
  @IsUUID()
  project_id!: string;

  @ApiProperty({ minLength: 2, maxLength: 100, description: 'Part of the e-mail or the name' })
  @IsString()
  @MinLength(2)
  @MaxLength(100)
  q!: string;

  @ApiPropertyOptional({ enum: PEOPLE_SCOPES, default: 'assignable' })
  @IsOptional()
  @IsIn(PEOPLE_SCOPES)
  scope?: PeopleScope;

  @QueryInt({ min: 1, max: 50, default: 20 })
  limit?: number;
}

export class FoundPersonDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() display_name!: string;
  @ApiProperty({
    enum: PROJECT_ROLES,
    nullable: true,
    type: String,
    description: 'Role in the project; null when none',
  })
  role!: ProjectRole | null;

  static from(p: FoundPerson): FoundPersonDto {
    return { id: p.id, email: p.email, display_name: p.displayName, role: p.role };
  }
}
