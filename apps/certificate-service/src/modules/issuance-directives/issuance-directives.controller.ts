import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { pageOf } from '../../app/http/paging.dto';
import {
  CreateDirectiveDto,
  DirectiveDto,
  DirectiveListDto,
  DirectivePageDto,
  DirectiveQueryDto,
} from './dto/issuance-directive.dto';
import { IssuanceDirectivesService } from './issuance-directives.service';

/** A device's directive history is bounded: at most this many, newest first. */
const DEVICE_LIST_MAX = 500;

/** Issuance directives for administrators: cert-admin only, reading included (spec, Roles). */
@ApiTags('issuance-directives')
@Controller('api/v1')
@Roles('cert-admin')
export class IssuanceDirectivesController {
  constructor(private readonly directives: IssuanceDirectivesService) {}

  @Get('admin/issuance-directives')
  @ApiOkResponse({ type: DirectivePageDto, description: 'fleet-wide queue, newest first' })
  async queue(@Query() query: DirectiveQueryDto): Promise<DirectivePageDto> {
    const { page, limit, offset } = pageOf(query);
    const { items, total } = await this.directives.queue(query.state, limit, offset);
    return { items: items.map(DirectiveDto.from), page, limit, total };
  }

  @Delete('admin/issuance-directives/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'cancelled (also when it already was)' })
  async cancel(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.directives.cancel(actor, id);
  }

  @Get('devices/:serial/issuance-directives')
  @ApiOkResponse({ type: DirectiveListDto, description: 'newest first, at most 500' })
  async ofDevice(@Param('serial') serial: string): Promise<DirectiveListDto> {
    const rows = await this.directives.ofDevice(serial, DEVICE_LIST_MAX);
    return { items: rows.map(DirectiveDto.from) };
  }

  @Post('devices/:serial/issuance-directives')
  @ApiCreatedResponse({ type: DirectiveDto })
  async create(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Body() body: CreateDirectiveDto,
  ): Promise<DirectiveDto> {
    return DirectiveDto.from(await this.directives.create(actor, serial, body));
  }
}
