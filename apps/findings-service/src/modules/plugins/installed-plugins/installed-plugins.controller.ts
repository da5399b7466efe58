import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Post,
  Put,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { AcceptsBody, closeAfterRefusal } from '@platform/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccessContext } from '../../../app/access/access-context';
import { AdminOnly, CurrentAccess } from '../../../app/access/access.decorators';
import { FINDINGS_CONFIG } from '../../../app/config/config.tokens';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import { actorOf } from '../../action-log/finding-action';
import {
  ChangePluginVersionDto,
  InstalledPluginDto,
  InstallPluginDto,
  UpdateInstalledPluginDto,
} from './dto/installed-plugin.dto';
import { InstalledPluginsService } from './installed-plugins.service';
import { PluginConfigurationService } from './plugin-configuration.service';
import { PluginInstallService } from './plugin-install.service';
import { PluginUninstallService } from './plugin-uninstall.service';
import { PluginVersionsService } from './plugin-versions.service';
import { readSideloadForm } from './sideload-form';

const SIDELOAD_SCHEMA = {
  type: 'object',
  required: ['module', 'description'],
  properties: {
    module: { type: 'string', format: 'binary', description: 'the component (component.wasm)' },
    description: { type: 'string', format: 'binary', description: 'manifest.json' },
    runtime: { type: 'string', enum: ['wasm', 'native'], description: "the manifest's if absent" },
  },
};

@ApiTags('plugins')
@Controller(`${API_PREFIX}/admin/installed-plugins`)
export class InstalledPluginsController {
  constructor(
    private readonly installs: PluginInstallService,
    private readonly configuration: PluginConfigurationService,
    private readonly versions: PluginVersionsService,
    private readonly plugins: InstalledPluginsService,
    private readonly uninstalls: PluginUninstallService,
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
  ) {}

  @Post()
  @HttpCode(201)
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto, { status: 201, description: 'Installed, not enabled' })
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429)
  async install(
    @Body() body: InstallPluginDto,
    @CurrentAccess() access: AccessContext,
  ): Promise<InstalledPluginDto> {
    const plugin = await this.installs.install(
      {
        sourceType: body.source_type,
        marketplaceId: body.marketplace_id,
        catalogPluginId: body.catalog_plugin_id,
        runtime: body.runtime,
        version: body.version,
      },
      actorOf(access),
    );
    return InstalledPluginDto.from(plugin);
  }

  @Post('sideload')
  @HttpCode(201)
  @AdminOnly()
  @AcceptsBody('multipart/form-data')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: SIDELOAD_SCHEMA })
  @ApiDataResponse(InstalledPluginDto, {
    status: 201,
    description: 'Installed (unsigned: signatures are not checked), not enabled',
  })
  @ApiErrorResponses(400, 401, 403, 409, 413, 422, 429)
  async sideload(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentAccess() access: AccessContext,
  ): Promise<InstalledPluginDto> {
    try {
      const form = await readSideloadForm(request, this.config.plugins.artifactMaxBytes);
      return InstalledPluginDto.from(await this.installs.sideload(form, actorOf(access)));
    } catch (error) {
      // the rest of a refused upload is discarded unread, then the connection closes
      closeAfterRefusal(request, reply);
      throw error;
    }
  }

  @Get()
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto, { isArray: true })
  @ApiErrorResponses(401, 403, 429)
  async list(): Promise<InstalledPluginDto[]> {
    return (await this.plugins.list()).map((p) => InstalledPluginDto.from(p));
  }

  @Get(':id')
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async get(@UuidParam('id') id: string): Promise<InstalledPluginDto> {
    return InstalledPluginDto.from(await this.plugins.get(id));
  }

  @Put(':id')
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429, 503)
  async updateSettings(
    @UuidParam('id') id: string,
    @Body() body: UpdateInstalledPluginDto,
    @CurrentAccess() access: AccessContext,
  ): Promise<InstalledPluginDto> {
    const plugin = await this.configuration.updateSettings(
      id,
      { settings: body.settings, secretSettings: body.secret_settings },
      actorOf(access),
    );
    return InstalledPluginDto.from(plugin);
  }

  @Delete(':id')
  @HttpCode(204)
  @AdminOnly()
  @ApiNoContentResponse({
    description:
      'Uninstalled: unloaded if enabled; its settings, secrets and project settings removed (what it wrote into findings stays)',
  })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async uninstall(
    @UuidParam('id') id: string,
    @CurrentAccess() access: AccessContext,
  ): Promise<void> {
    await this.uninstalls.uninstall(id, actorOf(access));
  }

  @Post(':id/enable')
  @HttpCode(200)
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto, { description: 'Enabled and loaded in the runner' })
  @ApiErrorResponses(400, 401, 403, 404, 422, 429, 503)
  async enable(
    @UuidParam('id') id: string,
    @CurrentAccess() access: AccessContext,
  ): Promise<InstalledPluginDto> {
    return InstalledPluginDto.from(await this.configuration.setEnabled(id, true, actorOf(access)));
  }

  @Post(':id/disable')
  @HttpCode(200)
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto, { description: 'Disabled and unloaded from the runner' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async disable(
    @UuidParam('id') id: string,
    @CurrentAccess() access: AccessContext,
  ): Promise<InstalledPluginDto> {
    return InstalledPluginDto.from(await this.configuration.setEnabled(id, false, actorOf(access)));
  }

  @Post(':id/update')
  @HttpCode(200)
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto, {
    description:
      'Updated to the newest (or the given) catalog version, signature re-verified; a version widening the capabilities answers 422 plugin_capability_change_pending and is held',
  })
  @ApiErrorResponses(400, 401, 403, 404, 422, 429, 503)
  async update(
    @UuidParam('id') id: string,
    @Body() body: ChangePluginVersionDto,
    @CurrentAccess() access: AccessContext,
  ): Promise<InstalledPluginDto> {
    const plugin = await this.versions.changeFromCatalog(
      id,
      { version: body.version, confirmDowngrade: body.confirm_downgrade },
      actorOf(access),
    );
    return InstalledPluginDto.from(plugin);
  }

  @Post(':id/acknowledge-capability-change')
  @HttpCode(200)
  @AdminOnly()
  @ApiDataResponse(InstalledPluginDto, { description: 'The held version is applied' })
  @ApiErrorResponses(400, 401, 403, 404, 422, 429, 503)
  async acknowledge(
    @UuidParam('id') id: string,
    @CurrentAccess() access: AccessContext,
  ): Promise<InstalledPluginDto> {
    return InstalledPluginDto.from(await this.versions.acknowledge(id, actorOf(access)));
  }
}
