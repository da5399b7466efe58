import { Global, Module } from '@nestjs/common';
import { SshEnabledGuard } from '../../app/features/ssh-enabled.guard';
import { ISSUED_SSH_CERTIFICATE_READER } from '../agent/issued-ssh-certificate-reader';
import { PrincipalAliasesModule } from '../principal-aliases/principal-aliases.module';
import { SshKeysModule } from '../ssh-keys/ssh-keys.module';
import { SshCaRepository } from './ssh-ca.repository';
import { SshCaService } from './ssh-ca.service';
import { SshCertificateIssuer } from './ssh-certificate-issuer';
import { SshCertificateReader } from './ssh-certificate-reader';
import { SshCertificateRevoker } from './ssh-certificate-revoker';
import { SshCertificatesRepository } from './ssh-certificates.repository';
import { SshController } from './ssh.controller';
import { SshKrlRepository } from './ssh-krl.repository';
import { SshKrl } from './ssh-krl.service';
import { SshRevocationSources } from './ssh-revocation-source';
import { SshRevocationSourcesBootstrap } from './ssh-revocation-sources.bootstrap';

/**
 * The SSH user CA, SSH certificates (issued by the approval flow, revoked singly or with the
 * device) and the KRL with its sources. Global for the agent module's reader port.
 */
@Global()
@Module({
  imports: [SshKeysModule, PrincipalAliasesModule],
  controllers: [SshController],
  providers: [
    SshEnabledGuard,
    SshCaRepository,
    SshCaService,
    SshCertificatesRepository,
    SshKrlRepository,
    SshRevocationSources,
    SshRevocationSourcesBootstrap,
    SshKrl,
    SshCertificateIssuer,
    SshCertificateRevoker,
    { provide: ISSUED_SSH_CERTIFICATE_READER, useClass: SshCertificateReader },
  ],
  exports: [
    SshCaService,
    SshKrl,
    SshRevocationSources,
    SshCertificateIssuer,
    SshCertificateRevoker,
    ISSUED_SSH_CERTIFICATE_READER,
  ],
})
export class SshModule {}
