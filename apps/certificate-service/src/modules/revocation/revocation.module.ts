import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { CaModule } from '../ca/ca.module';
import { LicenseModule } from '../license/license.module';
import { SshModule } from '../ssh/ssh.module';
import { CertificateRevoker } from './certificate-revoker';
import { DeviceBlockRepository } from './device-block.repository';
import { RevocationController } from './revocation.controller';
import { RevocationService } from './revocation.service';
import { WebhookOutboxModule } from '../webhooks/webhooks.module';

/** Certificate, device and user revocation; device block and unblock. */
@Module({
  imports: [AuditModule, CaModule, LicenseModule, SshModule, WebhookOutboxModule],
  controllers: [RevocationController],
  providers: [DeviceBlockRepository, CertificateRevoker, RevocationService],
})
export class RevocationModule {}
