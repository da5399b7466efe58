import { Global, Module } from '@nestjs/common';
import { SshEnabledGuard } from '../../app/features/ssh-enabled.guard';
import { SshKeysModule } from '../ssh-keys/ssh-keys.module';
import { SshCaRepository } from './ssh-ca.repository';
import { SshCaService } from './ssh-ca.service';
import { SshCertificatesRepository } from './ssh-certificates.repository';
import { SshController } from './ssh.controller';
import { SshKrlRepository } from './ssh-krl.repository';
import { SshKrl } from './ssh-krl.service';
import { SshRevocationSources } from './ssh-revocation-source';
import { SshRevocationSourcesBootstrap } from './ssh-revocation-sources.bootstrap';

/**
 * The SSH user CA, SSH certificates and the KRL with its sources. Global: the key-holder API
 * serves the same cached KRL.
 */
@Global()
@Module({
  imports: [SshKeysModule],
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
  ],
  exports: [SshCaService, SshKrl, SshRevocationSources],
})
export class SshModule {}
