import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  ListDeliveriesQueryDto,
  NotificationDeliveryDto,
  NotificationDeliveryPageDto,
} from './notification-deliveries.dto';
import { NotificationDeliveriesService } from './notification-deliveries.service';

/** Deliveries of a project's notifications: user tokens, manage_notifications on the project. */
@ApiTags('notifications')
@Controller(`${API_PREFIX}/projects/:id/notification-deliveries`)
@UserOnly()
export class NotificationDeliveriesController {
  constructor(private readonly deliveries: NotificationDeliveriesService) {}

  @Get()
  @ApiOperation({
    summary: 'Deliveries of the project’s notifications to its channels, newest first',
    description:
      'User token; manage_notifications on the project (a member without it: 403 access_denied; not a member: 404 project_not_found). Keyset paging: follow next_cursor with the same filters.',
  })
  @ApiDataResponse(NotificationDeliveryPageDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<NotificationDeliveryPageDto> {
    const page = await this.deliveries.list(access, projectId, {
      state: query.state,
      pluginId: query.plugin_id,
      limit: query.limit ?? 50,
      cursor: query.cursor,
    });
    return {
      items: page.items.map((v) => NotificationDeliveryDto.from(v)),
      next_cursor: page.nextCursor,
    };
  }

  @Post(':delivery_id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a failed delivery again',
    description:
      'failed → pending (attempts 0, due now); any other state: 422 delivery_not_retryable. Same access as the list.',
  })
  @ApiDataResponse(NotificationDeliveryDto)
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async retry(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('delivery_id') deliveryId: string,
  ): Promise<NotificationDeliveryDto> {
    return NotificationDeliveryDto.from(await this.deliveries.retry(access, projectId, deliveryId));
  }
}
