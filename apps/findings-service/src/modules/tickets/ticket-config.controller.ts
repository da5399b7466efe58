import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  PutTicketConfigDto,
  RotatedWebhookSecretDto,
  TicketConfigDto,
  TicketProviderDto,
} from './dto/ticket-config.dto';
import { TicketConfigService, type TicketConfigView } from './ticket-config.service';
import { TicketProvidersService } from './ticket-providers.service';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

const configDto = (v: TicketConfigView): TicketConfigDto => ({
  project_id: v.projectId,
  plugin_id: v.pluginId,
  settings: v.settings,
  secret_settings_set: v.secretSettingsSet,
  default_target: v.defaultTarget,
  tracker_closed_action: v.trackerClosedAction,
  sync_status_to_tracker: v.syncStatusToTracker,
  webhook: {
    secret_set: v.webhook.secretSet,
    rotated_at: iso(v.webhook.rotatedAt),
    previous_valid_until: iso(v.webhook.previousValidUntil),
    url_template: v.webhook.urlTemplate,
  },
});

/** GET /ticket-providers: the installed ticketing providers (user tokens, any signed-in user). */
@ApiTags('tickets')
@Controller(`${API_PREFIX}/ticket-providers`)
@UserOnly()
export class TicketProvidersController {
  constructor(private readonly providers: TicketProvidersService) {}

  @Get()
  @ApiDataResponse(TicketProviderDto, { isArray: true })
  @ApiErrorResponses(401, 403, 429)
  async list(): Promise<TicketProviderDto[]> {
    return (await this.providers.list()).map((p) => ({
      plugin_id: p.id,
      catalog_plugin_id: p.catalogPluginId,
      name: p.catalogPluginId,
      version: p.version,
      enabled: p.enabled,
    }));
  }
}

/**
 * A project's ticket provider configuration and webhook secret: members read; PUT and the
 * rotation need manage_notifications. User tokens only.
 */
@ApiTags('tickets')
@Controller(`${API_PREFIX}/projects/:id`)
@UserOnly()
export class TicketConfigController {
  constructor(private readonly config: TicketConfigService) {}

  @Get('ticket-provider/config')
  @ApiDataResponse(TicketConfigDto)
  @ApiErrorResponses(401, 403, 404, 429)
  async get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<TicketConfigDto> {
    return configDto(await this.config.get(access, projectId));
  }

  @Put('ticket-provider/config')
  @ApiDataResponse(TicketConfigDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429, 503)
  async put(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: PutTicketConfigDto,
  ): Promise<TicketConfigDto> {
    return configDto(
      await this.config.put(access, projectId, {
        pluginId: body.plugin_id.toLowerCase(),
        settings: body.settings,
        defaultTarget: body.default_target,
        trackerClosedAction: body.tracker_closed_action,
        syncStatusToTracker: body.sync_status_to_tracker,
      }),
    );
  }

  @Post('ticket-webhook/rotate')
  @HttpCode(200)
  @ApiDataResponse(RotatedWebhookSecretDto)
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async rotate(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<RotatedWebhookSecretDto> {
    const rotated = await this.config.rotate(access, projectId);
    return {
      secret: rotated.secret,
      webhook_url: rotated.webhookUrl,
      previous_valid_until: iso(rotated.previousValidUntil),
    };
  }
}
