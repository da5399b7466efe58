import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { IssuerProfilesModule } from './issuer-profiles.module';
import { IssuerSettingsController } from './issuer-settings.controller';
import { IssuerSettingsService } from './issuer-settings.service';

/** `/api/v1/settings/issuers*`: the issuer profile routes (the API process only). */
@Module({
  imports: [IssuerProfilesModule, AuditModule],
  controllers: [IssuerSettingsController],
  providers: [IssuerSettingsService],
})
export class IssuerSettingsModule {}
