import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import { ProjectPluginSettingsDto, PutProjectPluginSettingsDto } from './plugin-channels.dto';
import {
  ProjectPluginSettingsService,
  type ProjectPluginSettingsView,
} from './project-plugin-settings.service';

const settingsDto = (v: ProjectPluginSettingsView): ProjectPluginSettingsDto => ({
  plugin_id: v.pluginId,
  project_id: v.projectId,
  settings: v.settings,
  secret_settings_set: v.secretSettingsSet,
});

/**
 * A project's values of a WebAssembly plugin's per_project settings (the value
 * get-project-secret answers): user tokens; members read, PUT needs manage_notifications.
 */
@ApiTags('plugins')
@Controller(`${API_PREFIX}/projects/:id/plugin-settings`)
@UserOnly()
export class ProjectPluginSettingsController {
  constructor(private readonly projectSettings: ProjectPluginSettingsService) {}

  @Get(':plugin_id')
  @ApiDataResponse(ProjectPluginSettingsDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('plugin_id') pluginId: string,
  ): Promise<ProjectPluginSettingsDto> {
    return settingsDto(await this.projectSettings.get(access, projectId, pluginId));
  }

  @Put(':plugin_id')
  @ApiDataResponse(ProjectPluginSettingsDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async put(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @UuidParam('plugin_id') pluginId: string,
    @Body() body: PutProjectPluginSettingsDto,
  ): Promise<ProjectPluginSettingsDto> {
    return settingsDto(await this.projectSettings.put(access, projectId, pluginId, body.settings));
  }
}
