import { Body, Controller, Get, HttpCode, Post, Put, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Public, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import {
  ActivateLicenseDto,
  AttestRequestDto,
  LicenseAttestationDto,
  DecommissionDto,
  DecommissionResultDto,
  LicenseStatusDto,
  ReanchorResultDto,
  SeatEnforcementDto,
} from './dto/license.dto';
import { AttestRateLimitGuard } from './attest-rate-limit.guard';
import { LicenseActivationService } from './license-activation.service';
import { LicenseAttestationService } from './license-attestation.service';
import { LicenseReanchorService } from './license-reanchor.service';
import { LicenseSeatsService } from './license-seats.service';
import { LicenseSlotsService } from './license-slots.service';
import { LicenseStatusService } from './license-status.service';

@ApiTags('license')
@Controller('api/v1/license')
export class LicenseController {
  constructor(
    private readonly licenseStatus: LicenseStatusService,
    private readonly seats: LicenseSeatsService,
    private readonly activation: LicenseActivationService,
    private readonly attestation: LicenseAttestationService,
    private readonly reanchoring: LicenseReanchorService,
    private readonly slots: LicenseSlotsService,
  ) {}

  @Get('status')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: LicenseStatusDto })
  async status(): Promise<LicenseStatusDto> {
    return LicenseStatusDto.from(await this.licenseStatus.status());
  }

  @Get('seat-enforcement')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: SeatEnforcementDto })
  async seatEnforcement(): Promise<SeatEnforcementDto> {
    return { step: await this.seats.seatEnforcement() };
  }

  @Put('seat-enforcement')
  @Roles('cert-admin')
  @ApiOkResponse({ type: SeatEnforcementDto })
  async setSeatEnforcement(
    @CurrentActor() actor: Actor,
    @Body() body: SeatEnforcementDto,
  ): Promise<SeatEnforcementDto> {
    return { step: await this.seats.setSeatEnforcement(actor, body.step) };
  }

  @Post('activate')
  @HttpCode(200)
  @Roles('cert-admin')
  @ApiOkResponse({ type: LicenseStatusDto, description: 'the status with the new license' })
  async activate(
    @CurrentActor() actor: Actor,
    @Body() body: ActivateLicenseDto,
  ): Promise<LicenseStatusDto> {
    return LicenseStatusDto.from(await this.activation.activate(body.license_b64, actor));
  }

  /** Public, limited like `/enroll*` (per process and client address). */
  @Post('attest')
  @HttpCode(200)
  @Public()
  @UseGuards(AttestRateLimitGuard)
  @ApiOkResponse({ type: LicenseAttestationDto })
  async attest(@Body() body: AttestRequestDto): Promise<LicenseAttestationDto> {
    return LicenseAttestationDto.from(await this.attestation.attest(body.nonce));
  }

  @Post('reanchor')
  @HttpCode(200)
  @Roles('cert-admin')
  @ApiOkResponse({ type: ReanchorResultDto })
  async reanchor(@CurrentActor() actor: Actor): Promise<ReanchorResultDto> {
    return ReanchorResultDto.from(await this.reanchoring.reanchor(actor));
  }

  @Post('decommission')
  @HttpCode(200)
  @Roles('cert-admin')
  @ApiOkResponse({ type: DecommissionResultDto })
  async decommission(@Body() body: DecommissionDto): Promise<DecommissionResultDto> {
    const { activeCount } = await this.slots.decommission(body.identity_key);
    return { identity_key: body.identity_key, active_count: activeCount };
  }
}
