import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { PrincipalAliasesModule } from '../principal-aliases/principal-aliases.module';
import { SettingsModule } from '../settings/settings.module';
import { SshKeysModule } from '../ssh-keys/ssh-keys.module';
import { KeyholderAccessGuard } from './keyholder-access.guard';
import { KeyholderAdminController } from './keyholder-admin.controller';
import { KeyholderController } from './keyholder.controller';
import { KeyholderKrlController } from './keyholder-krl.controller';
import { KeyholderRepository } from './keyholder.repository';
import { KeyholderService } from './keyholder.service';
import { KeyholderTokensRepository } from './keyholder-tokens.repository';
import { KeyholderTokensService } from './keyholder-tokens.service';
import { RateLimitsModule } from '../../app/http/rate-limits.module';

/** The key-holder API for target servers, its server tokens and token gate. */
@Module({
  imports: [AuditModule, SettingsModule, SshKeysModule, PrincipalAliasesModule, RateLimitsModule],
  controllers: [KeyholderController, KeyholderKrlController, KeyholderAdminController],
  providers: [
    KeyholderTokensRepository,
    KeyholderTokensService,
    KeyholderRepository,
    KeyholderService,
    KeyholderAccessGuard,
  ],
})
export class KeyholderModule {}
