import { Body, Controller, Delete, Get, HttpCode, Patch, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { FindingActionDto, FindingActionsQueryDto } from './dto/finding-action.dto';
import { toFindingFilters } from './dto/finding-filters.dto';
import { FindingDetailDto, FindingPageDto } from './dto/finding.dto';
import { DEFAULT_PAGE_SIZE, ListFindingsQueryDto } from './dto/list-findings.query.dto';
import { toTriagePatch, UpdateFindingDto } from './dto/update-finding.dto';
import { FindingsQueryService } from './findings-query.service';
import { FindingTriageService } from './triage/finding-triage.service';
import { FindingMergeService } from './merge/finding-merge.service';

@ApiTags('findings')
@Controller(`${API_PREFIX}/findings`)
export class FindingsController {
  constructor(
    private readonly query: FindingsQueryService,
    private readonly triage: FindingTriageService,
    private readonly merges: FindingMergeService,
  ) {}

  @Get()
  @Access({ permission: 'read_findings' })
  @ApiDataResponse(FindingPageDto, { description: 'One keyset page; follow next_cursor' })
  @ApiErrorResponses(400, 401, 403, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @Query() dto: ListFindingsQueryDto,
  ): Promise<FindingPageDto> {
    const page = await this.query.list(access, {
      filters: toFindingFilters(dto),
      q: dto.q,
      sort: dto.sort ?? 'created_at',
      order: dto.order ?? 'desc',
      cursor: dto.cursor,
      limit: dto.limit ?? DEFAULT_PAGE_SIZE,
    });
    return FindingPageDto.from(page);
  }

  @Get(':id')
  @Access({ permission: 'read_findings' })
  @ApiDataResponse(FindingDetailDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<FindingDetailDto> {
    const finding = await this.query.get(access, id);
    const [decision, members] = await Promise.all([
      this.query.statusDecision(finding),
      this.merges.members(finding.id),
    ]);
    return FindingDetailDto.fromDetail(finding, decision, members);
  }

  @Patch(':id')
  @Access({ permission: 'write_findings' })
  @ApiDataResponse(FindingDetailDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async update(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: UpdateFindingDto,
  ): Promise<FindingDetailDto> {
    const finding = await this.triage.update(access, id, toTriagePatch(body));
    return FindingDetailDto.fromDetail(finding, await this.query.statusDecision(finding));
  }

  @Delete(':id')
  @UserOnly()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Finding deleted; its action log is kept' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async delete(@CurrentAccess() access: AccessContext, @UuidParam('id') id: string): Promise<void> {
    await this.triage.delete(access, id);
  }

  @Get(':id/actions')
  @Access({ permission: 'read_findings' })
  @ApiDataResponse(FindingActionDto, { isArray: true, description: 'Oldest first' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async actions(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Query() dto: FindingActionsQueryDto,
  ): Promise<FindingActionDto[]> {
    const actions = await this.query.actions(access, id, {
      limit: dto.limit ?? 100,
      after: dto.after?.toString(),
    });
    return actions.map((a) => FindingActionDto.from(a));
  }
}
