import { ApiProperty } from '@nestjs/swagger';
import type { ProjectFindingCounts } from '../project-findings.port';
import { ProjectEntity } from '../project.entity';
import type { ProjectWithCounts } from '../projects.service';

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

export class OpenBySeverityDto {
  @ApiProperty() CRITICAL!: number;
  @ApiProperty() HIGH!: number;
  @ApiProperty() MEDIUM!: number;
  @ApiProperty() LOW!: number;
  @ApiProperty() INFO!: number;
}

export class ProjectFindingCountsDto {
  @ApiProperty({ description: 'Every finding of the project' }) total!: number;
  @ApiProperty({ description: 'Status group open (attention + risk_accepted + wont_fix)' })
  open!: number;
  @ApiProperty({ description: 'Status group attention' }) attention!: number;
  @ApiProperty({ type: OpenBySeverityDto }) open_by_severity!: OpenBySeverityDto;

  static from(c: ProjectFindingCounts): ProjectFindingCountsDto {
    return {
      total: c.total,
      open: c.open,
      attention: c.attention,
      open_by_severity: c.openBySeverity,
    };
  }
}

/** GET /projects and GET /projects/{id}: the project with its finding counts. */
export class ProjectWithCountsDto extends ProjectDto {
  @ApiProperty({ type: ProjectFindingCountsDto }) finding_counts!: ProjectFindingCountsDto;

  static fromCounted(p: ProjectWithCounts): ProjectWithCountsDto {
    return {
      ...ProjectDto.from(p.project),
      finding_counts: ProjectFindingCountsDto.from(p.counts),
    };
  }
}
