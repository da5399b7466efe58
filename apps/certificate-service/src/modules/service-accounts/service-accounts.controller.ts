import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  CreatedServiceAccountDto,
  CreateServiceAccountDto,
  ServiceAccountDto,
  ServiceAccountListDto,
  SetAllowedPurposesDto,
  SetServiceAccountEnabledDto,
} from './dto/service-account.dto';
import { ServiceAccountsService } from './service-accounts.service';

/** Only people with cert-admin; a service account never manages service accounts. */
@ApiTags('service-accounts')
@Controller('api/v1/service-accounts')
@Roles('cert-admin')
export class ServiceAccountsController {
  constructor(private readonly accounts: ServiceAccountsService) {}

  @Get()
  @ApiOkResponse({ type: ServiceAccountListDto })
  async list(): Promise<ServiceAccountListDto> {
    return { items: (await this.accounts.list()).map(ServiceAccountDto.from) };
  }

  @Post()
  @ApiCreatedResponse({ type: CreatedServiceAccountDto })
  async create(
    @CurrentActor() actor: Actor,
    @Body() body: CreateServiceAccountDto,
  ): Promise<CreatedServiceAccountDto> {
    const { account, token } = await this.accounts.create(actor, {
      name: body.name,
      expiresInDays: body.expires_in_days,
      allowedPurposes: body.allowed_purposes,
    });
    return { ...ServiceAccountDto.from(account), token };
  }

  @Put(':id/enabled')
  @ApiOkResponse({ type: ServiceAccountDto })
  async setEnabled(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SetServiceAccountEnabledDto,
  ): Promise<ServiceAccountDto> {
    return ServiceAccountDto.from(await this.accounts.setEnabled(actor, id, body.enabled));
  }

  @Put(':id/allowed-purposes')
  @ApiOkResponse({ type: ServiceAccountDto })
  async setAllowedPurposes(
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: SetAllowedPurposesDto,
  ): Promise<ServiceAccountDto> {
    return ServiceAccountDto.from(
      await this.accounts.setAllowedPurposes(actor, id, body.allowed_purposes),
    );
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'deleted; its token stops working at once' })
  async delete(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.accounts.delete(actor, id);
  }
}
