import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { AuditModule } from '../audit/audit.module';
import { DevicesModule } from '../devices/devices.module';
import { EnrollRateLimitGuard } from '../enrollment/enroll-rate-limit.guard';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { TokenRecoverController } from './token-recover.controller';
import { TokenRecoverRepository } from './token-recover.repository';
import { TokenRecoverService } from './token-recover.service';

/**
 * `POST /api/v1/enroll/token-recover` (docs/certificate-service/enrollment.md, "Recovering the
 * enrollment token"): nonces from the enrollment module, the token written through the devices
 * module.
 */
@Module({
  imports: [DevicesModule, EnrollmentModule, AuditModule, RateLimitsModule],
  controllers: [TokenRecoverController],
  providers: [TokenRecoverRepository, TokenRecoverService, EnrollRateLimitGuard],
})
export class TokenRecoverModule {}
