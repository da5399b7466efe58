import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { Access, AnyPermission, CurrentAccess } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  ListScopeAssetsQueryDto,
  ReportScopeAssetsDto,
  ResolutionReportDto,
  ResolutionReportResultDto,
  ScopeAssetPageDto,
  ScopeAssetReportDto,
} from './dto/scope-assets.dto';
import { IpamImportDto, IpamImportResultDto } from './dto/scope-import.dto';
import { NETBOX_OBJECTS } from './ipam/netbox-client';
import { ScopeImportService } from './ipam/scope-import.service';
import { ScopeAssetsService } from './scope-assets.service';

/** The discovered inventory and the import from an IP address management system. */
@ApiTags('scope')
@Controller(`${API_PREFIX}/projects/:id/scope`)
export class ScopeAssetsController {
  constructor(
    private readonly assets: ScopeAssetsService,
    private readonly imports: ScopeImportService,
  ) {}

  @Post('assets')
  @HttpCode(200)
  @Access({ permission: 'upload_report' })
  @ApiOperation({
    summary: 'Report discovered domain <-> IP pairs (upsert)',
    description:
      '`upload_report`. At most 5 000 pairs; a new pair gets first and last seen, a known one its last seen moved forward. The inventory never changes the perimeter.',
  })
  @ApiDataResponse(ScopeAssetReportDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async report(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: ReportScopeAssetsDto,
  ): Promise<ScopeAssetReportDto> {
    return ScopeAssetReportDto.from(await this.assets.report(access, projectId, body.assets));
  }

  @Get('assets')
  @AnyPermission()
  @ApiOperation({
    summary: 'The discovered inventory, last seen first',
    description: 'Any permission on the project. Keyset paging: follow next_cursor.',
  })
  @ApiDataResponse(ScopeAssetPageDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Query() query: ListScopeAssetsQueryDto,
  ): Promise<ScopeAssetPageDto> {
    const page = await this.assets.list(access, projectId, query.domain, {
      cursor: query.cursor,
      limit: query.limit ?? 100,
    });
    return ScopeAssetPageDto.from(page);
  }

  @Post('resolution-report')
  @HttpCode(200)
  @Access({ permission: 'upload_report' })
  @ApiOperation({
    summary: 'Domains that stopped or resumed resolving',
    description:
      '`upload_report`. Recorded on the domain’s inventory pairs: `resolving` and the time it stopped or resumed; a domain with no pair is listed in `unknown` and not recorded.',
  })
  @ApiDataResponse(ResolutionReportResultDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async resolution(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: ResolutionReportDto,
  ): Promise<ResolutionReportResultDto> {
    return ResolutionReportResultDto.from(
      await this.assets.resolution(access, projectId, body.domains),
    );
  }

  @Post('import/:ipam_system')
  @HttpCode(200)
  @Access({ permission: 'manage_scope' })
  @ApiOperation({
    summary: 'Import entries from an IP address management system (netbox)',
    description:
      '`manage_scope`. `ipam_system` is `netbox` (another value: 400 scope_ipam_unsupported). Reads prefixes and/or IP addresses through the request-forgery guard; what is already an entry or overlaps one is skipped and counted. The token is used for this call only. NetBox unreachable or failing: 502; token refused: 422; address refused by the guard: 400.',
  })
  @ApiDataResponse(IpamImportResultDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429, 502)
  async import(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Param('ipam_system') system: string,
    @Body() body: IpamImportDto,
  ): Promise<IpamImportResultDto> {
    const result = await this.imports.import(access, projectId, system, {
      baseUrl: body.base_url,
      token: body.token,
      objects: body.objects ? [...new Set(body.objects)] : NETBOX_OBJECTS,
      tags: body.tag ?? [],
      statuses: body.status ?? [],
      vrfId: body.vrf_id,
      mode: body.mode ?? 'include',
    });
    return IpamImportResultDto.from(result);
  }
}
