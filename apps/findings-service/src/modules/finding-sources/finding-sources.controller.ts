import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import { FindingSourceStatusDto, FindingSourceSyncDto } from './finding-sources.dto';
import { FindingSourcesError } from './finding-sources.errors';
import { FindingSourcesRepository } from './finding-sources.repository';
import { FindingSourcesService } from './finding-sources.service';

/** Out-of-turn polls of finding sources and their last result: administrators only. */
@ApiTags('plugins')
@Controller(`${API_PREFIX}/admin/installed-plugins`)
@AdminOnly()
export class FindingSourcesController {
  constructor(
    private readonly sources: FindingSourcesService,
    private readonly repository: FindingSourcesRepository,
  ) {}

  /**
   * Polls now and answers the result; a failed poll changes nothing, is recorded (sync-status)
   * and answers 422 finding_source_poll_failed with the reason.
   */
  @Post(':id/sync-now')
  @HttpCode(200)
  @ApiDataResponse(FindingSourceSyncDto)
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async syncNow(@UuidParam('id') id: string): Promise<FindingSourceSyncDto> {
    const record = await this.sources.sync(id, 'manual');
    if (record.outcome === 'failed') {
      throw new FindingSourcesError('finding_source_poll_failed', {
        plugin_id: id,
        reason: record.errorCode,
        message: record.errorMessage,
      });
    }
    return FindingSourceSyncDto.from(record);
  }

  @Get(':id/sync-status')
  @ApiDataResponse(FindingSourceStatusDto)
  @ApiErrorResponses(401, 403, 404, 429)
  async status(@UuidParam('id') id: string): Promise<FindingSourceStatusDto> {
    await this.sources.source(id);
    const last = await this.repository.lastSync(id);
    return { plugin_id: id, last_sync: last ? FindingSourceSyncDto.from(last) : null };
  }
}
