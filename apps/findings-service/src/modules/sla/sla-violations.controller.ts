import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  ListSlaViolationsQueryDto,
  ResolveSlaViolationDto,
  SlaViolationDto,
  SlaViolationPageDto,
} from './dto/sla-violation.dto';
import { toViolationFilters } from './dto/sla-violation-filters';
import { SlaViolationsService } from './sla-violations.service';

@ApiTags('sla')
@Controller(`${API_PREFIX}/sla/violations`)
export class SlaViolationsController {
  constructor(private readonly violations: SlaViolationsService) {}

  @Get()
  @Access({ permission: 'read_findings' })
  @ApiOperation({
    summary: 'Deadline violations (open by default), newest first',
    description:
      'Within the caller’s read_findings visibility (project role or key grant). Keyset paging: follow next_cursor with the same filters.',
  })
  @ApiDataResponse(SlaViolationPageDto)
  @ApiErrorResponses(400, 401, 403, 429)
  async list(
    @CurrentAccess() access: AccessContext,
    @Query() query: ListSlaViolationsQueryDto,
  ): Promise<SlaViolationPageDto> {
    const page = await this.violations.list(access, toViolationFilters(query), {
      cursor: query.cursor,
      limit: query.limit ?? 50,
    });
    return SlaViolationPageDto.from(page);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @Access({ permission: 'write_findings', principals: ['user'] })
  @ApiOperation({
    summary: 'Close a deadline violation by hand',
    description:
      'User token only; analyst or admin of the finding’s project. 422 sla_violation_resolved when already closed. The hourly check does not reopen it for the same deadline.',
  })
  @ApiDataResponse(SlaViolationDto)
  @ApiErrorResponses(400, 401, 403, 404, 422, 429)
  async resolve(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: ResolveSlaViolationDto,
  ): Promise<SlaViolationDto> {
    return SlaViolationDto.from(await this.violations.resolve(access, id, body.comment ?? null));
  }
}
