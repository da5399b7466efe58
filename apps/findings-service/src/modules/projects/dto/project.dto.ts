import { ApiProperty } from '@nestjs/swagger';
import { ProjectEntity } from '../project.entity';

export class ProjectDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;

  static from(project: ProjectEntity): ProjectDto {
    return {
      id: project.id,
      name: project.name,
      description: project.description,
      created_at: project.createdAt.toISOString(),
    };
  }
}
