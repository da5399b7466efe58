import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InputValidationError } from '@platform/errors';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  BulkTicketDto,
  BulkTicketResultDto,
  CreateTicketDto,
  LinkTicketDto,
  TicketDto,
  TicketTargetDto,
  TicketUrlDto,
  TicketUrlResultDto,
} from './dto/ticket.dto';
import type { TicketView } from './tickets.repository';
import { TicketsService } from './tickets.service';

export const ticketDto = (v: TicketView): TicketDto => ({
  id: v.id,
  provider_plugin_id: v.providerPluginId,
  task_id: v.taskId,
  task_key: v.taskKey,
  url: v.url,
  status: v.status,
  raw_status: v.rawStatus,
  origin: v.origin,
  finding_count: v.findingCount,
  status_synced_at: v.statusSyncedAt ? v.statusSyncedAt.toISOString() : null,
  sync_error: v.syncError,
});

/** Tasks for findings: create, link, one for a group, the creation form (user tokens only). */
@ApiTags('tickets')
@Controller(`${API_PREFIX}/findings`)
@UserOnly()
export class FindingTicketsController {
  constructor(private readonly tickets: TicketsService) {}

  @Post('ticket/bulk')
  @ApiDataResponse(BulkTicketResultDto, { status: 201 })
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429, 503)
  async bulk(
    @CurrentAccess() access: AccessContext,
    @Body() body: BulkTicketDto,
  ): Promise<BulkTicketResultDto> {
    if (body.group !== undefined) {
      // A roll-up row's task goes through the roll-up (its filters, visibility and the
      // one-project check): docs/findings-service/groups-and-rollups.md.
      throw new InputValidationError([
        {
          field: 'group',
          problems: [
            'a roll-up row: POST /api/v1/findings/inventory-rollup/bulk-status with action ticket',
          ],
        },
      ]);
    }
    if (!body.finding_ids) {
      throw new InputValidationError([{ field: 'finding_ids', problems: ['required'] }]);
    }
    const result = await this.tickets.bulk(access, {
      findingIds: body.finding_ids,
      title: body.title,
      target: body.target,
      skipTicketed: body.skip_ticketed ?? true,
    });
    return { ticket: ticketDto(result.ticket), linked: result.linked, skipped: result.skipped };
  }

  @Post('ticket-url')
  @HttpCode(200)
  @ApiDataResponse(TicketUrlResultDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429, 503)
  ticketUrl(
    @CurrentAccess() access: AccessContext,
    @Body() body: TicketUrlDto,
  ): Promise<TicketUrlResultDto> {
    return this.tickets.creationFormUrl(access, {
      findingIds: body.finding_ids,
      target: body.target,
    });
  }

  @Post(':id/ticket')
  @ApiDataResponse(TicketDto, { status: 201 })
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429, 503)
  async create(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') findingId: string,
    @Body() body: CreateTicketDto,
  ): Promise<TicketDto> {
    return ticketDto(await this.tickets.create(access, findingId, body));
  }

  @Post(':id/ticket/link')
  @ApiDataResponse(TicketDto, { status: 201 })
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429, 503)
  async link(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') findingId: string,
    @Body() body: LinkTicketDto,
  ): Promise<TicketDto> {
    return ticketDto(
      await this.tickets.link(access, findingId, {
        taskId: body.task_id,
        byLabel: body.by_label,
        replace: body.replace,
      }),
    );
  }
}

/** GET /projects/{id}/ticket-targets: the provider's targets for the project (members). */
@ApiTags('tickets')
@Controller(`${API_PREFIX}/projects/:id/ticket-targets`)
@UserOnly()
export class TicketTargetsController {
  constructor(private readonly tickets: TicketsService) {}

  @Get()
  @ApiDataResponse(TicketTargetDto, { isArray: true })
  @ApiErrorResponses(401, 403, 404, 422, 429, 503)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<TicketTargetDto[]> {
    return (await this.tickets.targets(access, projectId)).map((t) => ({ id: t.id, name: t.name }));
  }
}
