import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { AdminOnly, CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  ChannelBackfillDto,
  ChannelBackfillQueryDto,
  ChannelConfigDto,
  ProjectChannelDto,
  PutChannelConfigDto,
} from './plugin-channels.dto';
import { PluginChannelsService, type ChannelConfigView } from './plugin-channels.service';

const configDto = (v: ChannelConfigView): ChannelConfigDto => ({
  plugin_id: v.pluginId,
  project_id: v.projectId,
  settings: v.settings,
  secret_settings_set: v.secretSettingsSet,
});

/** Channel plugins of a project: user tokens; PUT needs manage_notifications. */
@ApiTags('plugins')
@Controller(`${API_PREFIX}/projects/:id/plugin-channels`)
@UserOnly()
export class PluginChannelsController {
  constructor(private readonly channels: PluginChannelsService) {}

  @Get()
  @ApiDataResponse(ProjectChannelDto, { isArray: true })
  @ApiErrorResponses(401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<ProjectChannelDto[]> {
    return (await this.channels.list(access, projectId)).map((c) => ({
      plugin_id: c.plugin.id,
      catalog_plugin_id: c.plugin.catalogPluginId,
      version: c.plugin.version,
      configured: c.configured,
      enabled: c.enabled,
      delivery: {
        pending: c.delivery.pending,
        delivered_24h: c.delivery.delivered24h,
        failed_24h: c.delivery.failed24h,
        last_failure_at: c.delivery.lastFailureAt?.toISOString() ?? null,
        last_failure_message: c.delivery.lastFailureMessage,
      },
      settings_schema: c.plugin.manifest.settings
        .filter((s) => s.per_project === true)
        .map((s) => ({
          name: s.name,
          type: s.type,
          required: s.required === true,
          secret: s.secret === true,
          per_project: true,
          ...(s.description ? { description: s.description } : {}),
        })),
    }));
  }

  @Get(':plugin_id/config')
  @ApiDataResponse(ChannelConfigDto)
  @ApiErrorResponses(401, 403, 404, 429)
  async get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('plugin_id') pluginId: string,
  ): Promise<ChannelConfigDto> {
    return configDto(await this.channels.get(access, projectId, pluginId));
  }

  @Put(':plugin_id/config')
  @ApiDataResponse(ChannelConfigDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async put(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('plugin_id') pluginId: string,
    @Body() body: PutChannelConfigDto,
  ): Promise<ChannelConfigDto> {
    return configDto(await this.channels.put(access, projectId, pluginId, body.settings));
  }
}

/** Moves the core's old channel settings into the channel plugin: administrators only. */
@ApiTags('plugins')
@Controller(`${API_PREFIX}/admin/maintenance`)
@AdminOnly()
export class ChannelBackfillController {
  constructor(private readonly channels: PluginChannelsService) {}

  @Post('channel-config-backfill')
  @HttpCode(200)
  @ApiDataResponse(ChannelBackfillDto)
  @ApiErrorResponses(400, 401, 403, 422, 429)
  async backfill(@Query() query: ChannelBackfillQueryDto): Promise<ChannelBackfillDto> {
    const mode = query.mode ?? 'dry-run';
    const counts = await this.channels.backfill(query.channel, mode === 'final');
    return {
      channel: query.channel,
      mode,
      plugin_id: counts.pluginId,
      moved: counts.moved,
      skipped: counts.skipped,
      already_configured: counts.alreadyConfigured,
    };
  }
}
