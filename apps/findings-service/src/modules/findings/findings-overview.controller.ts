import { Readable } from 'node:stream';
import { Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess } from '../../app/access/access.decorators';
import { toFindingFilters } from './dto/finding-filters.dto';
import {
  FindingCountDto,
  FindingGroupPageDto,
  FindingGroupsQueryDto,
  FindingSelectionQueryDto,
} from './dto/finding-overview.dto';
import { FindingExportLinkDto, FindingExportQueryDto } from './dto/finding-export.dto';
import { FindingsExportService } from './export/findings-export.service';
import { FindingsOverviewService } from './findings-overview.service';

/** The list's selection as a whole: total count, groups by rule or file, CSV export. */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings`)
export class FindingsOverviewController {
  constructor(
    private readonly overview: FindingsOverviewService,
    private readonly exports: FindingsExportService,
  ) {}

  @Get('count')
  @Access({ permission: 'read_findings' })
  @ApiOperation({ summary: 'Total of the list selection: exact up to 10 000, else an estimate' })
  @ApiDataResponse(FindingCountDto)
  @ApiErrorResponses(400, 401, 403, 429)
  count(
    @CurrentAccess() access: AccessContext,
    @Query() dto: FindingSelectionQueryDto,
  ): Promise<FindingCountDto> {
    return this.overview.count(access, { filters: toFindingFilters(dto), q: dto.q });
  }

  @Get('groups')
  @Access({ permission: 'read_findings' })
  @ApiOperation({ summary: 'The list selection grouped by rule or by file, with counts' })
  @ApiDataResponse(FindingGroupPageDto)
  @ApiErrorResponses(400, 401, 403, 429)
  async groups(
    @CurrentAccess() access: AccessContext,
    @Query() dto: FindingGroupsQueryDto,
  ): Promise<FindingGroupPageDto> {
    const page = await this.overview.groups(access, {
      filters: toFindingFilters(dto),
      q: dto.q,
      by: dto.by,
      cursor: dto.cursor,
      limit: dto.limit ?? 50,
    });
    return FindingGroupPageDto.from(page);
  }

  @Post('export-links')
  @HttpCode(201)
  @Access({ permission: 'read_findings', principals: ['user'] })
  @ApiOperation({
    summary: 'A single-use link to the CSV export of the selection (user token only)',
    description:
      'Every filter and q of the list, checked as export.csv checks them. The answer names export.csv with the same selection and a download_token that works once, within 60 s, for the user who asked (re-checked when it is used): a browser can then download natively, streamed to disk, without an Authorization header.',
  })
  @ApiDataResponse(FindingExportLinkDto, { status: 201 })
  @ApiErrorResponses(400, 401, 403, 429)
  async exportLink(
    @CurrentAccess() access: AccessContext,
    @Query() dto: FindingSelectionQueryDto,
    @Req() request: FastifyRequest,
  ): Promise<FindingExportLinkDto> {
    const selection = new URLSearchParams(request.url.split('?')[1] ?? '');
    const link = await this.exports.link(
      access,
      { filters: toFindingFilters(dto), q: dto.q },
      selection,
    );
    return FindingExportLinkDto.from(link);
  }

  @Get('export.csv')
  @Access({ permission: 'read_findings', principals: ['user'], downloadLink: 'findings-export' })
  @ApiOperation({
    summary: 'The list selection as CSV, streamed (user token only)',
    description:
      'Every filter and q of the list; rows ordered by created_at desc. Header: id, project, product, severity, status, rule_id, rule_title, title, location, file_path, start_line, end_line, host, ip, port, protocol, url, cve, cwe, component, component_version, scanner, tags, report_tags, enrichment_tags, assignee, sla_due_at, risk_accepted_until, first_seen_at, last_seen_at, created_at. UTF-8 with BOM, CRLF, RFC 4180 quoting; formula-like cells get a leading apostrophe.',
  })
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: 'CSV attachment (findings.csv)',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrorResponses(400, 401, 403, 429)
  async exportCsv(
    @CurrentAccess() access: AccessContext,
    @Query() dto: FindingExportQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lines = await this.exports.open(access, { filters: toFindingFilters(dto), q: dto.q });
    await reply
      .status(200)
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="findings.csv"')
      .header('cache-control', 'no-store')
      .send(Readable.from(lines));
  }
}
