import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiDataResponse, ApiErrorResponses } from '../../../app/http/api-responses';
import { API_PREFIX } from '../../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../../app/http/uuid-param';
import type { AccessContext } from '../../../app/access/access-context';
import { Access, CurrentAccess } from '../../../app/access/access.decorators';
import { CreateManualFindingDto, ManualFindingDto } from './dto/manual-finding.dto';
import { ManualFindingsService } from './manual-findings.service';

@ApiTags('findings')
@Controller(API_PREFIX)
export class ManualFindingsController {
  constructor(private readonly manual: ManualFindingsService) {}

  @Post('products/:id/findings')
  @Access({ permission: 'upload_report' })
  @ApiDataResponse(ManualFindingDto, { status: 201, description: 'Finding created' })
  @ApiDataResponse(ManualFindingDto, { status: 200, description: 'The same finding existed' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async create(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') productId: string,
    @Body() body: CreateManualFindingDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ManualFindingDto> {
    const { finding, created } = await this.manual.create(access, productId, body);
    void reply.status(created ? 201 : 200);
    return ManualFindingDto.from(finding);
  }
}
