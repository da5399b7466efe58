import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../../app/http/rate-limits.module';
import { AuditModule } from '../audit/audit.module';
import { DevicesModule } from '../devices/devices.module';
import { EnrollRateLimitGuard } from '../enrollment/enroll-rate-limit.guard';
import { IdentityDirectoryController } from './identity-directory.controller';
import { IdentityDirectoryRepository } from './identity-directory.repository';
import { IdentityDirectoryService } from './identity-directory.service';
import { IdentitySidController } from './identity-sid.controller';
import { IdentitySidService } from './identity-sid.service';

/**
 * Identity SID look-ups for machines outside the domain: the LDAP directory setting
 * (`/api/v1/settings/identity-directory*`) and the agent route `POST /api/v1/enroll/identity-sid`.
 */
@Module({
  imports: [DevicesModule, AuditModule, RateLimitsModule],
  controllers: [IdentitySidController, IdentityDirectoryController],
  providers: [
    IdentityDirectoryRepository,
    IdentityDirectoryService,
    IdentitySidService,
    EnrollRateLimitGuard,
  ],
})
export class IdentitySidModule {}
