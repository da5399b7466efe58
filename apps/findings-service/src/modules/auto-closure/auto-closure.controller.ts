import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { Access, CurrentAccess, UserOnly } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import { AutoClosureViewService } from './auto-closure-view.service';
import {
  AutoClosureViewDto,
  PutVerificationEndpointDto,
  VerificationEndpointDto,
} from './dto/auto-closure.dto';
import { VerificationEndpointsService } from './verification-endpoints.service';

/** Why a finding is (not yet) closed automatically: readers of the finding, keys included. */
@ApiTags('findings')
@Controller(`${API_PREFIX}/findings/:id/auto-closure`)
export class AutoClosureController {
  constructor(private readonly views: AutoClosureViewService) {}

  @Get()
  @Access({ permission: 'read_findings' })
  @ApiDataResponse(AutoClosureViewDto)
  @ApiErrorResponses(401, 403, 404, 429)
  view(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
  ): Promise<AutoClosureViewDto> {
    return this.views.view(access, id);
  }
}

/** A project's re-verification endpoint: project administrators (user token). */
@ApiTags('projects')
@Controller(`${API_PREFIX}/projects/:id/verification-endpoint`)
@UserOnly()
export class VerificationEndpointController {
  constructor(private readonly endpoints: VerificationEndpointsService) {}

  @Get()
  @ApiDataResponse(VerificationEndpointDto)
  @ApiErrorResponses(401, 403, 404, 429)
  get(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<VerificationEndpointDto> {
    return this.endpoints.get(access, projectId);
  }

  @Put()
  @ApiDataResponse(VerificationEndpointDto)
  @ApiErrorResponses(400, 401, 403, 404, 429)
  put(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
    @Body() body: PutVerificationEndpointDto,
  ): Promise<VerificationEndpointDto> {
    return this.endpoints.put(access, projectId, body.url, body.rotate_secret === true);
  }

  @Delete()
  @HttpCode(204)
  @ApiResponse({ status: 204, description: 'Removed' })
  @ApiErrorResponses(401, 403, 404, 422, 429)
  async delete(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') projectId: string,
  ): Promise<void> {
    await this.endpoints.delete(access, projectId);
  }
}
