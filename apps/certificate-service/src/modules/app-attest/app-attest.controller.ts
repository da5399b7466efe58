import { Body, Controller, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../app/access/access.decorators';
import { AppAttestRateLimitGuard } from './app-attest-rate-limit.guard';
import { AppAttestService } from './app-attest.service';
import {
  AppAttestChallengeBodyDto,
  AppAttestChallengeDto,
  AppAttestReceiptBodyDto,
  AppAttestReceiptDto,
} from './dto/app-attest.dto';

/** App attestation for macOS enrollments (docs/certificate-service/app-attest.md). */
@ApiTags('enrollment')
@Controller('api/v1/enroll')
@Public()
@UseGuards(AppAttestRateLimitGuard)
export class AppAttestController {
  constructor(private readonly appAttest: AppAttestService) {}

  @Post('app-attest/challenge')
  @ApiCreatedResponse({ type: AppAttestChallengeDto })
  async challenge(@Body() body: AppAttestChallengeBodyDto): Promise<AppAttestChallengeDto> {
    const { challenge, expiresAt } = await this.appAttest.challenge(body.serial);
    return { challenge, expires_at: expiresAt.toISOString() };
  }

  @Post('app-attest')
  @ApiCreatedResponse({ type: AppAttestReceiptDto })
  async receive(@Body() body: AppAttestReceiptBodyDto): Promise<AppAttestReceiptDto> {
    const { id, expiresAt } = await this.appAttest.receive({
      serial: body.serial,
      challenge: body.challenge,
      keyId: body.key_id,
      attestation: body.attestation,
      osVersion: body.os_version,
    });
    return { attestation_id: id, verdict: 'verified', expires_at: expiresAt.toISOString() };
  }
}
