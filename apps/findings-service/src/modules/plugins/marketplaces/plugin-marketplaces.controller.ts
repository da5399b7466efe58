import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { AccessContext } from '../../../app/access/access-context';
import { AdminOnly, CurrentAccess } from '../../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import { actorOf } from '../../action-log/finding-action';
import { PluginCatalogDto } from './dto/plugin-catalog.dto';
import {
  CreatePluginMarketplaceDto,
  PluginMarketplaceDto,
  UpdatePluginMarketplaceDto,
} from './dto/plugin-marketplace.dto';
import { PluginUninstallService } from '../installed-plugins/plugin-uninstall.service';
import { PluginMarketplacesService } from './plugin-marketplaces.service';

@ApiTags('plugins')
@Controller(`${API_PREFIX}/admin/plugin-marketplaces`)
export class PluginMarketplacesController {
  constructor(
    private readonly marketplaces: PluginMarketplacesService,
    private readonly uninstalls: PluginUninstallService,
  ) {}

  @Post()
  @HttpCode(201)
  @AdminOnly()
  @ApiDataResponse(PluginMarketplaceDto, { status: 201, description: 'Registered' })
  @ApiErrorResponses(400, 401, 403, 429)
  async create(
    @Body() body: CreatePluginMarketplaceDto,
    @CurrentAccess() access: AccessContext,
  ): Promise<PluginMarketplaceDto> {
    const source = await this.marketplaces.create(
      {
        name: body.name,
        catalogUrl: body.catalog_url,
        publicKey: body.public_key,
        isActive: body.is_active,
        allowsNative: body.allows_native,
      },
      actorOf(access),
    );
    return PluginMarketplaceDto.from(source);
  }

  @Get()
  @AdminOnly()
  @ApiDataResponse(PluginMarketplaceDto, { isArray: true })
  @ApiErrorResponses(401, 403, 429)
  async list(): Promise<PluginMarketplaceDto[]> {
    return (await this.marketplaces.list()).map((s) => PluginMarketplaceDto.from(s));
  }

  @Get(':id')
  @AdminOnly()
  @ApiDataResponse(PluginMarketplaceDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async get(@UuidParam('id') id: string): Promise<PluginMarketplaceDto> {
    return PluginMarketplaceDto.from(await this.marketplaces.get(id));
  }

  @Put(':id')
  @AdminOnly()
  @ApiDataResponse(PluginMarketplaceDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  async update(
    @UuidParam('id') id: string,
    @Body() body: UpdatePluginMarketplaceDto,
    @CurrentAccess() access: AccessContext,
  ): Promise<PluginMarketplaceDto> {
    const source = await this.marketplaces.update(
      id,
      {
        name: body.name,
        catalogUrl: body.catalog_url,
        publicKey: body.public_key,
        isActive: body.is_active,
        allowsNative: body.allows_native,
      },
      actorOf(access),
    );
    return PluginMarketplaceDto.from(source);
  }

  @Delete(':id')
  @HttpCode(204)
  @AdminOnly()
  @ApiNoContentResponse({
    description:
      'Removed; 409 conflict (details.reason plugin_source_in_use) while installations come from it, (official_source) for the official source',
  })
  @ApiErrorResponses(400, 401, 403, 404, 409, 429)
  async remove(@UuidParam('id') id: string, @CurrentAccess() access: AccessContext): Promise<void> {
    await this.uninstalls.deleteSource(id, actorOf(access));
  }

  @Get(':id/catalog')
  @AdminOnly()
  @ApiDataResponse(PluginCatalogDto, {
    description: 'The catalog as fetched and verified now (version history, compatibility)',
  })
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  catalog(@UuidParam('id') id: string): Promise<PluginCatalogDto> {
    return this.marketplaces.catalog(id);
  }
}
