import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { DevicesModule } from '../devices/devices.module';
import { PrincipalAliasesModule } from '../principal-aliases/principal-aliases.module';
import { SettingsModule } from '../settings/settings.module';
import { SshKeyEnrollRateLimitGuard } from './ssh-key-enroll-rate-limit.guard';
import { SshKeyEnrollmentController } from './ssh-key-enrollment.controller';
import { SshKeyEnrollmentService } from './ssh-key-enrollment.service';
import { SshKeyEvents } from './ssh-key-events';
import { SshKeyRegistry } from './ssh-key-registry.service';
import { SshKeysController } from './ssh-keys.controller';
import { SshKeysRepository } from './ssh-keys.repository';
import { SshKeysService } from './ssh-keys.service';
import { SshRevocationFeed } from './ssh-revocation-feed.service';
import { SshRevocationsRepository } from './ssh-revocations.repository';
import { RateLimitsModule } from '../../app/http/rate-limits.module';

/**
 * Registered raw SSH keys (device registration, states, administration), and the revocation
 * feed. Exports what `modules/ssh` (KRL, certificates) and the device revoke need.
 */
@Module({
  imports: [AuditModule, DevicesModule, SettingsModule, PrincipalAliasesModule, RateLimitsModule],
  controllers: [SshKeyEnrollmentController, SshKeysController],
  providers: [
    SshKeysRepository,
    SshRevocationsRepository,
    SshKeyRegistry,
    SshRevocationFeed,
    SshKeyEvents,
    SshKeyEnrollmentService,
    SshKeysService,
    SshKeyEnrollRateLimitGuard,
  ],
  exports: [SshKeyRegistry, SshRevocationFeed, SshKeyEvents, SshKeysService],
})
export class SshKeysModule {}
