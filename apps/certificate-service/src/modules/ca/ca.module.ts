import { Module } from '@nestjs/common';
import { CaMaterialRepository } from './ca-material.repository';
import { IssuerController } from './issuer.controller';
import { IssuerRegistry } from './issuer-registry';

/** The built-in CA (persisted in `ca_material`) and the issuer of each purpose. */
@Module({
  controllers: [IssuerController],
  providers: [CaMaterialRepository, IssuerRegistry],
  exports: [IssuerRegistry],
})
export class CaModule {}
