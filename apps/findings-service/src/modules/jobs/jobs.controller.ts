import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Locale } from '../../app/errors/error-messages';
import { RequestLocale } from '../../app/errors/request-locale.decorator';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { JobCancelDto, JobDto, JobListQueryDto, JobStatsDto } from './dto/job.dto';
import { JobView } from './job-view';
import { JobsService } from './jobs.service';

@ApiTags('jobs')
@Controller(`${API_PREFIX}/jobs`)
@UserOnly()
@ApiHeader({ name: 'Accept-Language', required: false, description: 'en or ru (failure_reason)' })
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  /** The jobs with their reports (one lookup for all), failure reasons in the caller's language. */
  private async explained(views: JobView[], locale: Locale): Promise<JobDto[]> {
    const reports = await this.jobs.reportsOf(views);
    return views.map((v) =>
      JobDto.from(v, v.reportId ? reports.get(v.reportId) : undefined, locale),
    );
  }

  private async explainedOne(view: JobView, locale: Locale): Promise<JobDto> {
    const reports = await this.jobs.reportsOf([view]);
    const report = view.reportId ? reports.get(view.reportId) : undefined;
    return JobDto.from(view, report, locale);
  }

  @Get()
  @ApiDataResponse(JobDto, { isArray: true, description: 'Newest first' })
  @ApiErrorResponses(400, 401, 403, 429, 503)
  async list(
    @CurrentAccess() access: AccessContext,
    @Query() query: JobListQueryDto,
    @RequestLocale() locale: Locale,
  ): Promise<JobDto[]> {
    const views = await this.jobs.list(access, {
      state: query.state,
      queue: query.queue,
      kind: query.kind,
      reportId: query.report_id,
      limit: query.limit ?? 50,
      offset: query.offset ?? 0,
    });
    return this.explained(views, locale);
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
  async get(
    @CurrentAccess() access: AccessContext,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<JobDto> {
    return this.explainedOne(await this.jobs.get(access, id), locale);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiDataResponse(JobDto)
  @ApiErrorResponses(401, 403, 404, 422, 429, 503)
  async retry(
    @CurrentAccess() access: AccessContext,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<JobDto> {
    return this.explainedOne(await this.jobs.retry(access, id), locale);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiDataResponse(JobCancelDto)
  @ApiErrorResponses(401, 403, 404, 422, 429, 503)
  async cancel(
    @CurrentAccess() access: AccessContext,
    @Param('id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<JobCancelDto> {
    const result = await this.jobs.cancel(access, id);
    return {
      ...(await this.explainedOne(result, locale)),
      cancel_requested: result.cancelRequested,
    };
  }
}
