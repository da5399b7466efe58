import { Global, Module } from '@nestjs/common';
import { CaModule } from '../ca/ca.module';
import { CRL_SOURCE } from '../enrollment/crl-source';
import { CrlRepository } from './crl.repository';
import { CrlService } from './crl.service';
import { OcspController } from './ocsp.controller';
import { OcspService } from './ocsp.service';
import { PkiPublicationController } from './pki-publication.controller';

/**
 * The CRL store (issuing and root CA) and the public `/pki/*` URLs relying parties fetch;
 * provides the enrollment module's `CRL_SOURCE` port (global).
 */
@Global()
@Module({
  imports: [CaModule],
  controllers: [PkiPublicationController, OcspController],
  providers: [
    CrlRepository,
    CrlService,
    OcspService,
    { provide: CRL_SOURCE, useExisting: CrlService },
  ],
  exports: [CrlService, CRL_SOURCE],
})
export class CrlModule {}
