import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { toFindingFilters } from '../findings/dto/finding-filters.dto';
import { FindingPageDto } from '../findings/dto/finding.dto';
import { DEFAULT_PAGE_SIZE } from '../findings/dto/list-findings.query.dto';
import { ticketDto } from '../tickets/tickets.controller';
import {
  DEFAULT_ROLLUP_PAGE_SIZE,
  InventoryRollupQueryDto,
  RollupBulkResultDto,
  RollupBulkStatusDto,
  RollupMembersQueryDto,
  RollupPageDto,
  RollupRowDto,
} from './inventory-rollup.dto';
import { InventoryRollupService, type RollupAction } from './inventory-rollup.service';

/**
 * Inventory roll-ups (docs/findings-service/groups-and-rollups.md): user tokens only, a
 * service key gets 403. Reading is membership (read_findings); the bulk action write_findings.
 */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings/inventory-rollup`)
export class InventoryRollupController {
  constructor(private readonly rollup: InventoryRollupService) {}

  @Get()
  @Access({ permission: 'read_findings', principals: ['user'] })
  @ApiOperation({
    summary: 'Roll-up of the findings by package, host or CVE',
    description:
      'One row per key of the visible selection (the list’s filters and q): total, counts per severity and per state. Sorted by total (default, desc), key or a severity count; keyset pages (next_cursor).',
  })
  @ApiDataResponse(RollupPageDto)
  @ApiErrorResponses(400, 401, 403, 429)
  async rows(
    @CurrentAccess() access: AccessContext,
    @Query() dto: InventoryRollupQueryDto,
  ): Promise<RollupPageDto> {
    const sort = dto.sort ?? 'total';
    const page = await this.rollup.rows(access, {
      axis: dto.axis,
      filters: toFindingFilters(dto),
      q: dto.q,
      sort,
      order: dto.order ?? (sort === 'key' ? 'asc' : 'desc'),
      cursor: dto.cursor,
      limit: dto.limit ?? DEFAULT_ROLLUP_PAGE_SIZE,
    });
    return { items: page.items.map((r) => RollupRowDto.from(r)), next_cursor: page.nextCursor };
  }

  @Get('members')
  @Access({ permission: 'read_findings', principals: ['user'] })
  @ApiOperation({
    summary: 'The findings of a roll-up row',
    description:
      'The row’s findings (axis, key, the same filters and q), keyset pages as GET /findings.',
  })
  @ApiDataResponse(FindingPageDto, { description: 'One keyset page; follow next_cursor' })
  @ApiErrorResponses(400, 401, 403, 429)
  async members(
    @CurrentAccess() access: AccessContext,
    @Query() dto: RollupMembersQueryDto,
  ): Promise<FindingPageDto> {
    const page = await this.rollup.members(
      access,
      { axis: dto.axis, key: dto.key },
      {
        filters: toFindingFilters(dto),
        q: dto.q,
        sort: dto.sort ?? 'created_at',
        order: dto.order ?? 'desc',
        cursor: dto.cursor,
        limit: dto.limit ?? DEFAULT_PAGE_SIZE,
      },
    );
    return FindingPageDto.from(page);
  }

  @Post('bulk-status')
  @HttpCode(200)
  @Access({ permission: 'write_findings', principals: ['user'] })
  @ApiOperation({
    summary: 'Bulk action on a roll-up row: accept risk, won’t fix, one task for the group',
    description:
      'risk_accepted / wont_fix go through POST /findings/bulk-status (each writable member of the row, in every project of the row, gets its own action-log entry and clock effect; waiting is never offered). ticket: one task for the row’s writable findings through the project’s ticket provider (422 ticket_provider_not_configured without one; 400 when the row spans several projects or holds none you may change; 422 bulk_selection_too_large above 500).',
  })
  @ApiDataResponse(RollupBulkResultDto)
  @ApiErrorResponses(400, 401, 403, 404, 409, 422, 429, 503)
  async bulkStatus(
    @CurrentAccess() access: AccessContext,
    @Body() body: RollupBulkStatusDto,
  ): Promise<RollupBulkResultDto> {
    const action: RollupAction =
      body.action === 'ticket'
        ? { kind: 'ticket', title: body.title, target: body.target }
        : {
            kind: 'status',
            status: body.action,
            riskAcceptedUntil:
              body.risk_accepted_until === undefined
                ? undefined
                : new Date(body.risk_accepted_until),
            justification: body.justification,
          };
    const result = await this.rollup.act(
      access,
      { axis: body.axis, key: body.key, filters: toFindingFilters(body.filters ?? {}), q: body.q },
      action,
    );
    if (result.kind === 'status') {
      return {
        action: body.action,
        status_change: {
          matched: result.counts.matched,
          changed: result.counts.changed,
          violations_closed: result.counts.violationsClosed,
        },
        ticket: null,
      };
    }
    return {
      action: body.action,
      status_change: null,
      ticket: { ticket: ticketDto(result.ticket), linked: result.linked, skipped: result.skipped },
    };
  }
}
