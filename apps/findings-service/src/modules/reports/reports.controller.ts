import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiHeader, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AcceptsBody, closeAfterRefusal } from '@platform/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../../app/errors/error-messages';
import { RequestLocale } from '../../app/errors/request-locale.decorator';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess } from '../../app/access/access.decorators';
import { ReportAcceptedDto, ReportDto } from './dto/report.dto';
import { fallbackCommitIdOf, multipartParts } from './multipart-parts';
import { ReportsService } from './reports.service';

const UPLOAD_SCHEMA = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: '.sarif or .json; archives refused' },
    format: { type: 'string', enum: ['sarif', 'sonarqube'], description: 'detected if absent' },
    engine: { type: 'string', description: 'scanner name when the report lacks it' },
    engine_version: { type: 'string' },
    commit_id: { type: 'string', description: 'or header X-Commit-Id, or query commit_id' },
    verify_fixes: { type: 'boolean' },
  },
};

@ApiTags('reports')
@Controller(API_PREFIX)
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Post('products/:product_id/reports')
  @HttpCode(202)
  @Access({ permission: 'upload_report' })
  @AcceptsBody('multipart/form-data')
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_SCHEMA })
  @ApiHeader({ name: 'X-Commit-Id', required: false })
  @ApiQuery({ name: 'commit_id', required: false })
  @ApiDataResponse(ReportAcceptedDto, { status: 202, description: 'Queued for ingestion' })
  @ApiErrorResponses(400, 401, 403, 404, 413, 429, 503)
  async upload(
    @CurrentAccess() access: AccessContext,
    @UuidParam('product_id') productId: string,
    @Req() request: FastifyRequest<{ Querystring: { commit_id?: string } }>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ReportAcceptedDto> {
    try {
      const report = await this.reports.upload(access, {
        productId,
        parts: multipartParts(request),
        fallbackCommitId: fallbackCommitIdOf(request),
      });
      return { report_id: report.id, status: 'pending' };
    } catch (error) {
      // A refused upload is answered at once; the rest of the body is discarded unread.
      closeAfterRefusal(request, reply);
      throw error;
    }
  }

  @Get('reports/:report_id')
  @Access({ permission: 'read_reports' })
  @ApiDataResponse(ReportDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  @ApiHeader({ name: 'Accept-Language', required: false, description: 'en or ru' })
  async get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('report_id') id: string,
    @RequestLocale() locale: Locale,
  ): Promise<ReportDto> {
    return ReportDto.from(await this.reports.get(access, id), locale);
  }
}
