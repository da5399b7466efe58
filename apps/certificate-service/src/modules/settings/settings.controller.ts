import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import { EnrollSourceAuthDto, PutEnrollSourceAuthDto } from './dto/enroll-source-auth.dto';
import { PutSaAutoApproveDto, SaAutoApproveDto } from './dto/sa-auto-approve.dto';
import { PolicySettingsService } from './policy-settings.service';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './sa-auto-approve.policy';

/** Fleet policies: readable by every admin role, writable by cert-admin. */
@ApiTags('settings')
@Controller('api/v1/settings')
export class SettingsController {
  constructor(private readonly policies: PolicySettingsService) {}

  @Get('enroll-source-auth')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: EnrollSourceAuthDto })
  async enrollSourceAuth(): Promise<EnrollSourceAuthDto> {
    return EnrollSourceAuthDto.from(await this.policies.enrollSourceAuth());
  }

  @Put('enroll-source-auth')
  @Roles('cert-admin')
  @ApiOkResponse({ type: EnrollSourceAuthDto })
  async setEnrollSourceAuth(
    @CurrentActor() actor: Actor,
    @Body() body: PutEnrollSourceAuthDto,
  ): Promise<EnrollSourceAuthDto> {
    const stored = await this.policies.setEnrollSourceAuth(actor, {
      mode: body.mode,
      minAgentVersion: body.min_agent_version ?? null,
    });
    return EnrollSourceAuthDto.from(stored);
  }

  @Get('sa-auto-approve')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: SaAutoApproveDto })
  async saAutoApprove(): Promise<SaAutoApproveDto> {
    return SaAutoApproveDto.from(await this.policies.saAutoApprove());
  }

  @Put('sa-auto-approve')
  @Roles('cert-admin')
  @ApiOkResponse({ type: SaAutoApproveDto })
  async setSaAutoApprove(
    @CurrentActor() actor: Actor,
    @Body() body: PutSaAutoApproveDto,
  ): Promise<SaAutoApproveDto> {
    const stored = await this.policies.setSaAutoApprove(actor, {
      policy: body.policy,
      webhookUrl: body.webhook_url ?? null,
      webhookTimeoutMs: body.webhook_timeout_ms ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      webhookSecret: body.webhook_secret,
      attestation: body.attestation,
    });
    return SaAutoApproveDto.from(stored);
  }
}
