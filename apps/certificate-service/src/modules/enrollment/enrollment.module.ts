import { Module } from '@nestjs/common';
import { DevicesModule } from '../devices/devices.module';
import { SettingsModule } from '../settings/settings.module';
import { CrlDistributionService } from './crl-distribution.service';
import { DeviceSelfService } from './device-self-service.service';
import { EnrollNoncesRepository } from './enroll-nonces.repository';
import { EnrollNoncesService } from './enroll-nonces.service';
import { EnrollRateLimitGuard } from './enroll-rate-limit.guard';
import { EnrollmentController } from './enrollment.controller';
import { EnrollmentRepository } from './enrollment.repository';
import { EnrollmentService } from './enrollment.service';
import { SourceAuthGate } from './source-auth/source-auth.gate';
import { SshEnrollmentService } from './ssh-enrollment.service';
import { UserEnrollmentService } from './user-enrollment.service';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';
import { NetworksModule } from '../networks/networks.module';
import { AppAttestModule } from '../app-attest/app-attest.module';
import { TpmAttestationModule } from '../tpm-attestation/tpm-attestation.module';
import { EnrollAttestationService } from './enroll-attestation.service';
import { EnrollNonceIssuer } from './enroll-nonce-issuer.service';

/** `/api/v1/enroll*`: device registration, user requests, purposes and CRLs for agents. */
@Module({
  imports: [
    DevicesModule,
    SettingsModule,
    RateLimitsModule,
    WebhookOutboxModule,
    NetworksModule,
    AppAttestModule,
    TpmAttestationModule,
  ],
  controllers: [EnrollmentController],
  providers: [
    EnrollNoncesRepository,
    EnrollmentRepository,
    EnrollNoncesService,
    SourceAuthGate,
    EnrollAttestationService,
    EnrollNonceIssuer,
    EnrollmentService,
    UserEnrollmentService,
    SshEnrollmentService,
    DeviceSelfService,
    CrlDistributionService,
    EnrollRateLimitGuard,
  ],
  exports: [EnrollNoncesService],
})
export class EnrollmentModule {}
