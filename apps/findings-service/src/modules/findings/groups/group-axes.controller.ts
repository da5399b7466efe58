import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../../app/access/access-context';
import { Access, CurrentAccess } from '../../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import { toFindingFilters } from '../dto/finding-filters.dto';
import { FindingPageDto } from '../dto/finding.dto';
import { DEFAULT_PAGE_SIZE } from '../dto/list-findings.query.dto';
import { GroupAxesDto, GroupAxisDto, GroupMembersQueryDto } from './group-axes.dto';
import { GroupAxesService } from './group-axes.service';

/** A finding's groups: same package, host, CVE or rule within its project. */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings/:id/group-axes`)
export class GroupAxesController {
  constructor(private readonly groups: GroupAxesService) {}

  @Get()
  @Access({ permission: 'read_findings' })
  @ApiOperation({
    summary: 'Axes on which the finding has neighbours, with counts',
    description:
      'Same package (component name, any version), host, CVE or rule (scanner + rule id) among the findings of its project the caller may read. Axes without neighbours are left out.',
  })
  @ApiDataResponse(GroupAxesDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async axes(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<GroupAxesDto> {
    const axes = await this.groups.axes(access, id);
    return { finding_id: id, axes: axes.map((a) => GroupAxisDto.from(a)) };
  }

  @Get('members')
  @Access({ permission: 'read_findings' })
  @ApiOperation({
    summary: 'Members of the finding’s group along an axis',
    description:
      'Keyset pages as GET /findings (sort, order, cursor, limit, filters and q narrow the group; project_id is the finding’s own). 400 when the finding has no value on the axis.',
  })
  @ApiDataResponse(FindingPageDto, { description: 'One keyset page; follow next_cursor' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async members(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Query() dto: GroupMembersQueryDto,
  ): Promise<FindingPageDto> {
    const page = await this.groups.members(access, id, dto.axis, {
      filters: toFindingFilters(dto),
      q: dto.q,
      sort: dto.sort ?? 'created_at',
      order: dto.order ?? 'desc',
      cursor: dto.cursor,
      limit: dto.limit ?? DEFAULT_PAGE_SIZE,
    });
    return FindingPageDto.from(page);
  }
}
