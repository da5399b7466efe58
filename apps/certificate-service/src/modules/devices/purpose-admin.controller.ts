import { Controller, Delete, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import { pageOf } from '../../app/http/paging.dto';
import {
  OverrideCostDto,
  OverrideResetDto,
  PurposeRequestDto,
  PurposeRequestPageDto,
  PurposeRequestQueryDto,
} from './dto/purpose-request.dto';
import { purposeParam } from './purpose-param';
import { PurposeOverridesService } from './purpose-overrides.service';
import { PurposeRequestsService } from './purpose-requests.service';

/** Fleet-wide purpose administration: override resets and the purpose-request queue. */
@ApiTags('devices')
@Controller('api/v1/admin')
export class PurposeAdminController {
  constructor(
    private readonly overrides: PurposeOverridesService,
    private readonly requests: PurposeRequestsService,
  ) {}

  @Get('purpose-overrides/:purpose/cost')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: OverrideCostDto })
  cost(@Param('purpose') purpose: string): Promise<OverrideCostDto> {
    return this.overrides.cost(purposeParam(purpose));
  }

  @Delete('purpose-overrides/:purpose')
  @Roles('cert-admin')
  @ApiOkResponse({ type: OverrideResetDto })
  reset(
    @CurrentActor() actor: Actor,
    @Param('purpose') purpose: string,
  ): Promise<OverrideResetDto> {
    return this.overrides.reset(actor, purposeParam(purpose));
  }

  @Get('purpose-requests')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: PurposeRequestPageDto })
  async queue(@Query() query: PurposeRequestQueryDto): Promise<PurposeRequestPageDto> {
    const { page, limit, offset } = pageOf(query);
    const { items, total } = await this.requests.queue(query.status ?? 'pending', limit, offset);
    return { items: items.map(PurposeRequestDto.from), page, limit, total };
  }
}
