import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import { EnricherExecutionDto } from './enricher-execution.dto';
import { EnricherExecutionService } from './enricher-execution.service';

/** Whether the background enrichment runs an installed plugin, and why not (administrators). */
@ApiTags('plugins')
@Controller(`${API_PREFIX}/admin/installed-plugins`)
export class EnricherExecutionController {
  constructor(private readonly execution: EnricherExecutionService) {}

  @Get(':id/execution')
  @AdminOnly()
  @ApiDataResponse(EnricherExecutionDto)
  @ApiErrorResponses(401, 403, 404, 429, 503)
  async show(@UuidParam('id') id: string): Promise<EnricherExecutionDto> {
    return EnricherExecutionDto.from(id, await this.execution.show(id));
  }
}
