import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  CreateWebhookDto,
  DeliveriesQueryDto,
  SetWebhookEnabledDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDeliveryPageDto,
  WebhookDto,
  WebhookListDto,
  WebhookTestQueuedDto,
  WebhookWithSecretDto,
} from './dto/webhook.dto';
import { WebhooksService } from './webhooks.service';

/**
 * Outgoing webhook endpoints: every route, reads included, is cert-admin only; 404
 * `webhooks_disabled` while `CERTSVC_WEBHOOKS_ENABLED` is off (`WebhooksSwitch`).
 */
@ApiTags('webhooks')
@Controller('api/v1/admin/webhooks')
@Roles('cert-admin')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @ApiOkResponse({ type: WebhookListDto })
  async list(): Promise<WebhookListDto> {
    return { items: (await this.webhooks.list()).map(WebhookDto.from) };
  }

  @Post()
  @ApiCreatedResponse({ type: WebhookWithSecretDto, description: 'the secret is shown only here' })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookWithSecretDto> {
    const { endpoint, secret } = await this.webhooks.create(actor, {
      url: body.url,
      description: body.description,
      eventTypes: body.event_types,
      enabled: body.enabled,
      secret: body.secret,
    });
    return { ...WebhookDto.from(endpoint), secret };
  }

  @Put(':id')
  @ApiOkResponse({
    type: WebhookDto,
    description: 'with `secret` only when the call set a new one',
  })
  async update(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookDto | WebhookWithSecretDto> {
    const { endpoint, secret } = await this.webhooks.update(actor, id, {
      url: body.url,
      description: body.description,
      eventTypes: body.event_types,
      secret: body.secret,
    });
    return { ...WebhookDto.from(endpoint), ...(secret !== undefined ? { secret } : {}) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'deleted with its delivery log' })
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.webhooks.delete(actor, id);
  }

  @Put(':id/enabled')
  @ApiOkResponse({ type: WebhookDto })
  async setEnabled(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SetWebhookEnabledDto,
  ): Promise<WebhookDto> {
    return WebhookDto.from(await this.webhooks.setEnabled(actor, id, body.enabled));
  }

  @Post(':id/test')
  @HttpCode(202)
  @ApiAcceptedResponse({
    type: WebhookTestQueuedDto,
    description: 'a webhook.test delivery is queued',
  })
  async test(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<WebhookTestQueuedDto> {
    return { delivery_id: await this.webhooks.test(actor, id) };
  }

  @Get(':id/deliveries')
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  async deliveries(
    @Param('id') id: string,
    @Query() query: DeliveriesQueryDto,
  ): Promise<WebhookDeliveryPageDto> {
    const limit = query.limit ?? 50;
    const page = query.page ?? 1;
    const { items, total } = await this.webhooks.deliveriesOf(id, limit, page);
    return { items: items.map(WebhookDeliveryDto.from), total, page, limit };
  }
}
