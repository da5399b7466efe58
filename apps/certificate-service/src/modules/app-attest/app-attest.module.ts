import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { AppAttestRateLimitGuard } from './app-attest-rate-limit.guard';
import { SettingsModule } from '../settings/settings.module';
import { AppAttestController } from './app-attest.controller';
import { AppAttestGate } from './app-attest.gate';
import { AppAttestRepository } from './app-attest.repository';
import { AppAttestService } from './app-attest.service';

/** App attestation: challenge and receipt routes, and the gate `POST /enroll` applies. */
@Module({
  imports: [SettingsModule, RateLimitsModule],
  controllers: [AppAttestController],
  providers: [AppAttestRepository, AppAttestService, AppAttestGate, AppAttestRateLimitGuard],
  exports: [AppAttestGate],
})
export class AppAttestModule {}
