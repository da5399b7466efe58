import { Global, Module } from '@nestjs/common';
import { ISSUED_CERTIFICATE_READER } from '../agent/issued-certificate-reader';
import { AuditModule } from '../audit/audit.module';
import { CaModule } from '../ca/ca.module';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';
import { CertificatesController } from './certificates.controller';
import { CertificatesRepository } from './certificates.repository';
import { CertificatesService } from './certificates.service';
import { CertificateListRepository } from './certificate-list.repository';
import { CertificateTableReader } from './certificate-table-reader';

/** Issued certificates: the admin list, bundle, key protection, and the agent's reader port (global). */
@Global()
@Module({
  imports: [AuditModule, CaModule, WebhookOutboxModule],
  controllers: [CertificatesController],
  providers: [
    CertificatesRepository,
    CertificateListRepository,
    CertificatesService,
    { provide: ISSUED_CERTIFICATE_READER, useClass: CertificateTableReader },
  ],
  exports: [CertificatesRepository, CertificatesService, ISSUED_CERTIFICATE_READER],
})
export class CertificatesModule {}
