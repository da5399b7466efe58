import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import { StartTicketBackfillDto, TicketBackfillStartedDto } from './ticket-backfill.dto';
import { TicketBackfillService } from './ticket-backfill.service';

/** POST /projects/{id}/tickets/backfill: catch up the project's history (manage_notifications). */
@ApiTags('tickets')
@Controller(`${API_PREFIX}/projects/:id/tickets`)
@UserOnly()
export class TicketBackfillController {
  constructor(private readonly backfill: TicketBackfillService) {}

  @Post('backfill')
  @HttpCode(202)
  @ApiDataResponse(TicketBackfillStartedDto, { status: 202 })
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429, 503)
  async start(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: StartTicketBackfillDto,
  ): Promise<TicketBackfillStartedDto> {
    const started = await this.backfill.start(access, projectId, {
      mode: body.mode,
      minSeverity: body.min_severity,
      statuses: body.statuses,
    });
    return { job_id: started.jobId };
  }
}
