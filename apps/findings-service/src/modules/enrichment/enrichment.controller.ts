import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { ManualEnrichmentDto, PluginCapabilityDto } from './enrichment.dto';
import { ManualEnrichmentService } from './manual-enrichment.service';

/** Manual enrichment of one finding (the UI's button): user tokens only. */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings`)
@UserOnly()
export class EnrichmentController {
  constructor(private readonly manual: ManualEnrichmentService) {}

  @Post(':id/enrich-tags/:plugin_id')
  @HttpCode(200)
  @ApiDataResponse(ManualEnrichmentDto)
  @ApiErrorResponses(401, 403, 404, 422, 429, 503)
  async enrich(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @UuidParam('plugin_id') pluginId: string,
  ): Promise<ManualEnrichmentDto> {
    const result = await this.manual.enrich(access, id, pluginId);
    return {
      finding_id: id,
      plugin_id: pluginId,
      tags: result.tags,
      enrichment_tags: result.enrichmentTags,
    };
  }
}

/** Which enabled plugins offer a capability (for the UI): any signed-in user. */
@ApiTags('plugins')
@Controller(`${API_PREFIX}/plugins/capabilities`)
@UserOnly()
export class PluginCapabilitiesController {
  constructor(private readonly plugins: InstalledPluginsService) {}

  @Get('finding-enrichers')
  @ApiDataResponse(PluginCapabilityDto, { isArray: true })
  @ApiErrorResponses(401, 429)
  async enrichers(): Promise<PluginCapabilityDto[]> {
    const list = await this.plugins.listEnabledByCapability('finding_enricher');
    return list.map((p) => PluginCapabilityDto.from(p));
  }

  @Get('inventory-sources')
  @ApiDataResponse(PluginCapabilityDto, { isArray: true })
  @ApiErrorResponses(401, 429)
  async inventorySources(): Promise<PluginCapabilityDto[]> {
    const list = await this.plugins.listEnabledByCapability('finding_source');
    return list.map((p) => PluginCapabilityDto.from(p));
  }
}
