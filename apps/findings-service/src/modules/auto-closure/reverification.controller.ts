import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import { AutoClosureViewService } from './auto-closure-view.service';
import { VerificationDto } from './dto/auto-closure.dto';

/**
 * Manual re-verification (mounted only with FEATURE_MANUAL_REVERIFICATION; otherwise these
 * paths are 404 like any unknown route): ask the scanner, and see pending and answered requests.
 */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings/:id/reverification`)
@UserOnly()
export class ReverificationController {
  constructor(private readonly views: AutoClosureViewService) {}

  @Post()
  @HttpCode(202)
  @ApiDataResponse(VerificationDto, {
    status: 202,
    description: 'Request stored and sent (state pending), or stored as failed with the reason',
  })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  request(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<VerificationDto> {
    return this.views.reverify(access, id);
  }

  @Get()
  @ApiDataResponse(VerificationDto, { isArray: true })
  @ApiErrorResponses(401, 403, 404, 429)
  list(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<VerificationDto[]> {
    return this.views.verificationsOf(access, id);
  }
}
