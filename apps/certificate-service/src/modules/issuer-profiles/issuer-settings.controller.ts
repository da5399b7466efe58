import { Body, Controller, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  ConnectionTestDto,
  IssuerProfileDto,
  IssuerProfileListDto,
} from './dto/issuer-profile.dto';
import { PutIssuerProfileDto } from './dto/put-issuer-profile.dto';
import { IssuerSettingsService } from './issuer-settings.service';

/** Issuer profiles per purpose: cert-admin only, reading included (specification, Roles). */
@ApiTags('settings')
@Controller('api/v1/settings/issuers')
export class IssuerSettingsController {
  constructor(private readonly settings: IssuerSettingsService) {}

  @Get()
  @Roles('cert-admin')
  @ApiOkResponse({ type: IssuerProfileListDto })
  async list(): Promise<IssuerProfileListDto> {
    return { items: (await this.settings.list()).map((view) => IssuerProfileDto.from(view)) };
  }

  @Get(':purpose')
  @Roles('cert-admin')
  @ApiOkResponse({ type: IssuerProfileDto })
  async get(@Param('purpose') purpose: string): Promise<IssuerProfileDto> {
    return IssuerProfileDto.from(await this.settings.get(this.settings.purposeOf(purpose)));
  }

  @Put(':purpose')
  @Roles('cert-admin')
  @ApiOkResponse({ type: IssuerProfileDto })
  async put(
    @CurrentActor() actor: Actor,
    @Param('purpose') purpose: string,
    @Body() body: PutIssuerProfileDto,
  ): Promise<IssuerProfileDto> {
    const view = await this.settings.put(actor, this.settings.purposeOf(purpose), body);
    return IssuerProfileDto.from(view);
  }

  /** A real connectivity and authorization check; 200 with per-step results, also on failure. */
  @Post(':purpose/test-connection')
  @HttpCode(200)
  @Roles('cert-admin')
  @ApiOkResponse({ type: ConnectionTestDto })
  async testConnection(@Param('purpose') purpose: string): Promise<ConnectionTestDto> {
    const checked = this.settings.purposeOf(purpose);
    return ConnectionTestDto.from(checked, await this.settings.testConnection(checked));
  }
}
