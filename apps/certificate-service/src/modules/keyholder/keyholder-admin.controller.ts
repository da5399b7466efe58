import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import { PolicySettingsService } from '../settings/policy-settings.service';
import {
  CreatedKeyholderTokenDto,
  CreateKeyholderTokenDto,
  KeyholderTokenDto,
  KeyholderTokenGateDto,
  KeyholderTokenListDto,
  SetKeyholderTokenPrincipalsDto,
} from './dto/keyholder.dto';
import { KeyholderTokensService } from './keyholder-tokens.service';

/** Token gate (readable by every admin role) and server tokens (cert-admin). */
@ApiTags('keyholder')
@Controller('api/v1/admin')
export class KeyholderAdminController {
  constructor(
    private readonly policies: PolicySettingsService,
    private readonly tokens: KeyholderTokensService,
  ) {}

  @Get('keyholder-token-gate')
  @Roles(...READER_ROLES)
  @ApiOkResponse({
    type: KeyholderTokenGateDto,
    description: 'changed through PUT /api/v1/settings/system (keyholder_token_gate)',
  })
  async gate(): Promise<KeyholderTokenGateDto> {
    return KeyholderTokenGateDto.from(await this.policies.keyholderPolicy());
  }

  @Get('keyholder-tokens')
  @Roles('cert-admin')
  @ApiOkResponse({ type: KeyholderTokenListDto, description: 'values are never listed' })
  async list(): Promise<KeyholderTokenListDto> {
    return { items: (await this.tokens.list()).map(KeyholderTokenDto.from) };
  }

  @Post('keyholder-tokens')
  @Roles('cert-admin')
  @ApiCreatedResponse({ type: CreatedKeyholderTokenDto })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateKeyholderTokenDto,
  ): Promise<CreatedKeyholderTokenDto> {
    const { token, value } = await this.tokens.create(actor, body.name, body.principals ?? null);
    return { ...KeyholderTokenDto.from(token), token: value };
  }

  @Put('keyholder-tokens/:id/principals')
  @Roles('cert-admin')
  @ApiOkResponse({ type: KeyholderTokenDto })
  async restrict(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SetKeyholderTokenPrincipalsDto,
  ): Promise<KeyholderTokenDto> {
    return KeyholderTokenDto.from(await this.tokens.restrict(actor, id, body.principals ?? null));
  }

  @Delete('keyholder-tokens/:id')
  @Roles('cert-admin')
  @ApiOkResponse({
    type: KeyholderTokenDto,
    description: 'revoked; the value stops working at once',
  })
  async revoke(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<KeyholderTokenDto> {
    return KeyholderTokenDto.from(await this.tokens.revoke(actor, id));
  }
}
