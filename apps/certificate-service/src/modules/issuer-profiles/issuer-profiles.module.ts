import { Module } from '@nestjs/common';
import { IssuerProfilesRepository } from './issuer-profiles.repository';
import { ProfileIssuerFactory } from './profile-issuer.factory';
import { ProfileIssuers } from './profile-issuers';

/**
 * Owner of `issuer_profiles`: the stored profiles and the issuers built from them
 * (`ProfileIssuers`, read by the CA module's IssuerRegistry in the API and the worker).
 * The settings routes live in IssuerSettingsModule.
 */
@Module({
  providers: [IssuerProfilesRepository, ProfileIssuerFactory, ProfileIssuers],
  exports: [IssuerProfilesRepository, ProfileIssuerFactory, ProfileIssuers],
})
export class IssuerProfilesModule {}
