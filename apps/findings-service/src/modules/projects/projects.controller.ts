import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { CreateProjectDto } from './dto/create-project.dto';
import { ProjectDto, ProjectWithCountsDto } from './dto/project.dto';
import { ProjectSettingsDto, UpdateProjectSettingsDto } from './dto/project-settings.dto';
import { ProjectsService } from './projects.service';
import { settingsPatch } from './settings-patch';

@ApiTags('projects')
@Controller(`${API_PREFIX}/projects`)
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @HttpCode(201)
  @Access({ permission: 'create_project' })
  @ApiDataResponse(ProjectDto, { status: 201, description: 'Project created' })
  @ApiErrorResponses(400, 401, 403, 409, 429)
  async create(
    @CurrentAccess() access: AccessContext,
    @Body() body: CreateProjectDto,
  ): Promise<ProjectDto> {
    return ProjectDto.from(await this.projects.create(access, body));
  }

  @Get()
  @UserOnly()
  @ApiDataResponse(ProjectWithCountsDto, {
    isArray: true,
    description: 'Projects the user can see, with their finding counts',
  })
  @ApiErrorResponses(401, 403, 429)
  async list(@CurrentAccess() access: AccessContext): Promise<ProjectWithCountsDto[]> {
    const counted = await this.projects.withCounts(await this.projects.list(access));
    return counted.map((p) => ProjectWithCountsDto.fromCounted(p));
  }

  @Get(':id')
  @UserOnly()
  @ApiDataResponse(ProjectWithCountsDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<ProjectWithCountsDto> {
    const counted = await this.projects.oneWithCounts(await this.projects.get(access, id));
    return ProjectWithCountsDto.fromCounted(counted);
  }

  @Get(':id/settings')
  @UserOnly()
  @ApiDataResponse(ProjectSettingsDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async settings(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<ProjectSettingsDto> {
    return ProjectSettingsDto.from(await this.projects.get(access, id));
  }

  @Put(':id/settings')
  @UserOnly()
  @ApiDataResponse(ProjectSettingsDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async updateSettings(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: UpdateProjectSettingsDto,
  ): Promise<ProjectSettingsDto> {
    const project = await this.projects.updateSettings(access, id, settingsPatch(body));
    return ProjectSettingsDto.from(project);
  }
}
