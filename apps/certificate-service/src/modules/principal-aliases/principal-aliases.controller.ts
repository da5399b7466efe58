import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  AddPrincipalAliasMemberDto,
  CreatePrincipalAliasDto,
  PrincipalAliasDto,
  PrincipalAliasKeysDto,
  PrincipalAliasListDto,
  SetPrincipalAliasEnabledDto,
} from './dto/principal-alias.dto';
import { PrincipalAliasesService } from './principal-aliases.service';

/** Shared accounts (principal aliases): every route, reads included, is cert-admin only. */
@ApiTags('ssh')
@Controller('api/v1/admin/principal-aliases')
@Roles('cert-admin')
export class PrincipalAliasesController {
  constructor(private readonly aliases: PrincipalAliasesService) {}

  @Get()
  @ApiOkResponse({ type: PrincipalAliasListDto })
  async list(): Promise<PrincipalAliasListDto> {
    return { items: (await this.aliases.list()).map(PrincipalAliasDto.from) };
  }

  @Post()
  @ApiCreatedResponse({ type: PrincipalAliasDto })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreatePrincipalAliasDto,
  ): Promise<PrincipalAliasDto> {
    return PrincipalAliasDto.from(await this.aliases.create(actor, body.name, body.members ?? []));
  }

  @Delete(':alias')
  @HttpCode(204)
  @ApiNoContentResponse({
    description: 'deleted with its members; its keys stop being served at once',
  })
  async delete(@CurrentActor() actor: Actor, @Param('alias') alias: string): Promise<void> {
    await this.aliases.delete(actor, alias);
  }

  @Put(':alias/enabled')
  @ApiOkResponse({ type: PrincipalAliasDto })
  async setEnabled(
    @CurrentActor() actor: Actor,
    @Param('alias') alias: string,
    @Body() body: SetPrincipalAliasEnabledDto,
  ): Promise<PrincipalAliasDto> {
    return PrincipalAliasDto.from(await this.aliases.setEnabled(actor, alias, body.enabled));
  }

  @Get(':alias/keys')
  @ApiOkResponse({ type: PrincipalAliasKeysDto })
  async keys(@Param('alias') alias: string): Promise<PrincipalAliasKeysDto> {
    return PrincipalAliasKeysDto.from(await this.aliases.keys(alias));
  }

  @Post(':alias/members')
  @ApiCreatedResponse({ type: PrincipalAliasDto })
  async addMember(
    @CurrentActor() actor: Actor,
    @Param('alias') alias: string,
    @Body() body: AddPrincipalAliasMemberDto,
  ): Promise<PrincipalAliasDto> {
    return PrincipalAliasDto.from(await this.aliases.addMember(actor, alias, body.member));
  }

  @Delete(':alias/members/:member')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'removed; the person loses the alias at once' })
  async removeMember(
    @CurrentActor() actor: Actor,
    @Param('alias') alias: string,
    @Param('member') member: string,
  ): Promise<void> {
    await this.aliases.removeMember(actor, alias, member);
  }
}
