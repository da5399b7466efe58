import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { CorpAllowlistService } from './corp-allowlist.service';
import {
  AddCorpAllowlistEntryDto,
  CorpAllowlistDto,
  CorpAllowlistEntryDto,
} from './dto/corp-allowlist.dto';

/** Read and write need cert-admin (specification, "Read access that requires cert-admin"). */
@ApiTags('settings')
@Controller('api/v1/admin/corp-allowlist')
@Roles('cert-admin')
export class CorpAllowlistController {
  constructor(private readonly allowlist: CorpAllowlistService) {}

  @Get()
  @ApiOkResponse({ type: CorpAllowlistDto })
  async list(): Promise<CorpAllowlistDto> {
    return { items: (await this.allowlist.list()).map(CorpAllowlistEntryDto.from) };
  }

  @Post()
  @ApiCreatedResponse({ type: CorpAllowlistEntryDto })
  async add(
    @CurrentActor() actor: Actor,
    @Body() body: AddCorpAllowlistEntryDto,
  ): Promise<CorpAllowlistEntryDto> {
    return CorpAllowlistEntryDto.from(
      await this.allowlist.add(actor, body.serial, body.note ?? null),
    );
  }

  @Delete(':serial')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'removed' })
  async remove(@CurrentActor() actor: Actor, @Param('serial') serial: string): Promise<void> {
    await this.allowlist.remove(actor, serial);
  }
}
