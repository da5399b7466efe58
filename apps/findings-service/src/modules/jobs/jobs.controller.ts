import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { JobCancelDto, JobDto, JobListQueryDto, JobStatsDto } from './dto/job.dto';
import { JobsService } from './jobs.service';

@ApiTags('jobs')
@Controller(`${API_PREFIX}/jobs`)
@UserOnly()
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get()
  @ApiDataResponse(JobDto, { isArray: true, description: 'Newest first' })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  async list(
    @CurrentAccess() access: AccessContext,
    @Query() query: JobListQueryDto,
  ): Promise<JobDto[]> {
    const views = await this.jobs.list(access, {
      state: query.state,
      queue: query.queue,
      kind: query.kind,
      reportId: query.report_id,
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
    return views.map((v) => JobDto.from(v));
  }

  @Get('stats')
  @ApiDataResponse(JobStatsDto)
  @ApiErrorResponses(401, 403, 429, 503)
  stats(@CurrentAccess() access: AccessContext): Promise<JobStatsDto> {
    return this.jobs.stats(access);
  }

  @Get(':id')
  @ApiDataResponse(JobDto)
  @ApiErrorResponses(401, 403, 404, 429, 503)
  async get(@CurrentAccess() access: AccessContext, @Param('id') id: string): Promise<JobDto> {
    return JobDto.from(await this.jobs.get(access, id));
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiDataResponse(JobDto)
  @ApiErrorResponses(401, 403, 404, 422, 429, 503)
  async retry(@CurrentAccess() access: AccessContext, @Param('id') id: string): Promise<JobDto> {
    return JobDto.from(await this.jobs.retry(access, id));
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiDataResponse(JobCancelDto)
  @ApiErrorResponses(401, 403, 404, 422, 429, 503)
  async cancel(
    @CurrentAccess() access: AccessContext,
    @Param('id') id: string,
  ): Promise<JobCancelDto> {
    const result = await this.jobs.cancel(access, id);
    return { ...JobDto.from(result), cancel_requested: result.cancelRequested };
  }
}
