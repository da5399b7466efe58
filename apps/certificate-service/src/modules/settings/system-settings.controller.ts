import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { PutSystemSettingsDto, SystemSettingsDto } from './dto/system-settings.dto';
import { PolicySettingsService, type SystemSettingsChange } from './policy-settings.service';

/** System settings: read and written by cert-admin only (specification, Authentication). */
@ApiTags('settings')
@Controller('api/v1/settings/system')
export class SystemSettingsController {
  constructor(private readonly policies: PolicySettingsService) {}

  @Get()
  @Roles('cert-admin')
  @ApiOkResponse({ type: SystemSettingsDto })
  async get(): Promise<SystemSettingsDto> {
    return SystemSettingsDto.from(await this.policies.system());
  }

  @Put()
  @Roles('cert-admin')
  @ApiOkResponse({ type: SystemSettingsDto })
  async put(
    @CurrentActor() actor: Actor,
    @Body() body: PutSystemSettingsDto,
  ): Promise<SystemSettingsDto> {
    return SystemSettingsDto.from(await this.policies.setSystem(actor, changesOf(body)));
  }
}

function changesOf(body: PutSystemSettingsDto): SystemSettingsChange {
  const sshKeys = defined({
    binding: body.ssh_key_binding,
    autoApprove: body.ssh_key_auto_approve,
    autoApprovePrincipals: body.ssh_key_auto_approve_principals,
  });
  const keyholder = defined({
    tokenGate: body.keyholder_token_gate,
    allowedNetworks: body.keyholder_allowed_networks,
  });
  return {
    ...(Object.keys(sshKeys).length > 0 ? { sshKeys } : {}),
    ...(Object.keys(keyholder).length > 0 ? { keyholder } : {}),
    ...(body.k8s_prompt_step !== undefined ? { k8s: { promptStep: body.k8s_prompt_step } } : {}),
    ...(body.app_attest_enforcement !== undefined
      ? { appAttest: { enforcement: body.app_attest_enforcement } }
      : {}),
  };
}

function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
