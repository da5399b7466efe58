import { Module } from '@nestjs/common';
import { IssuerProfilesModule } from '../issuer-profiles/issuer-profiles.module';
import { CaMaterialRepository } from './ca-material.repository';
import { IssuerController } from './issuer.controller';
import { IssuerRegistry } from './issuer-registry';

/** The built-in CA (persisted in `ca_material`) and the issuer of each purpose. */
@Module({
  imports: [IssuerProfilesModule],
  controllers: [IssuerController],
  providers: [CaMaterialRepository, IssuerRegistry],
  exports: [IssuerRegistry],
})
export class CaModule {}
